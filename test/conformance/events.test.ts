// Scenarios of wire-server's integration/test/Test/Events.hs (the `/events` websocket). Where the
// original pushes through gundeck's internal API, the events here come from public actions
// (handle changes, messages, typing), which reach the same queues.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { otrMessage, postOtr } from '../helpers/otr.js';
import { createUser, type TestUser } from '../helpers/users.js';
import { cid, connectedUsers, internal, newConv, pub, qOf, socketOf, team } from './lib/env.js';
import {
  consumableClient,
  eventsSocket,
  legacyClient,
  payload,
  payloadType,
  putHandle,
  randomHandle,
} from './lib/events.js';
import { postTypingStatus } from '../helpers/endpoints/galley.js';
import { getLastNotification, getNotifications } from '../helpers/endpoints/gundeck.js';

const typing = (u: TestUser, conv: { id: string; domain: string }, status: 'started' | 'stopped') =>
  postTypingStatus(pub, u.token, conv, { status });

/** `n` events for a user (the original's internal pushes): handle changes. */
async function handleChanges(u: TestUser, n: number): Promise<string[]> {
  const handles: string[] = [];
  for (let i = 0; i < n; i++) {
    const h = randomHandle();
    await putHandle(u, h);
    handles.push(h);
  }
  return handles;
}

describe('Events', () => {
  it('Events.testConsumeEventsOneWebSocket', async () => {
    const alice = await createUser(pub, internal);
    const last = await getLastNotification(pub, alice.token);
    expect(last.status, last.text).toBe(200);
    const client = await consumableClient(alice);
    const ws = await eventsSocket(alice, client);
    const first = await ws.next();
    expect(first.type).toBe('event');
    expect(payloadType(first)).toBe('user.client-add');
    expect(payload(first).client.id).toBe(client);
    await ws.none();
    ws.ack(first);
    await ws.none();
    const handle = randomHandle();
    await putHandle(alice, handle);
    const update = await ws.next();
    expect(update.type).toBe('event');
    expect(payloadType(update)).toBe('user.update');
    expect(payload(update).user.handle).toBe(handle);
    await ws.close();
    // No legacy client: nothing new was stored for /notifications.
    const since = await getNotifications(pub, alice.token, { since: last.body.id });
    expect(since.status).toBe(200);
    expect(since.body.notifications).toEqual([]);
  });

  it('Events.testConsumeTempEvents', async () => {
    const alice = await createUser(pub, internal);
    const c0 = await consumableClient(alice);
    const ws0 = await eventsSocket(alice, c0);
    const own = await ws0.next();
    expect(payloadType(own)).toBe('user.client-add');
    expect(payload(own).client.id).toBe(c0);
    ws0.ack(own);
    await ws0.none();
    const temp = await eventsSocket(alice);
    const c1 = await consumableClient(alice);
    for (const ws of [temp, ws0]) {
      const e = await ws.next();
      expect(e.type).toBe('event');
      expect(payloadType(e)).toBe('user.client-add');
      expect(payload(e).client.id).toBe(c1);
      ws.ack(e);
    }
    await temp.none();
    await ws0.none();
    await Promise.all([temp.close(), ws0.close()]);
  });

  it('Events.testSendMessageNoReturnToSenderWithConsumableNotificationsProteus', async () => {
    const { owner: alice, tid, members } = await team(1);
    const bob = members[0]!;
    const aliceOld = await legacyClient(alice);
    const aliceClient = await consumableClient(alice);
    const bobClient = await consumableClient(bob);
    const conv = await newConv(alice, { team: { teamid: tid, managed: false }, qualified_users: [qOf(bob)] });
    const msg = otrMessage(aliceClient, [
      { user: bob.id, client: bobClient, text: 'hello, bob' },
      { user: alice.id, client: aliceOld, text: 'hello, bob' },
    ]);
    const sent = await postOtr(pub, alice.token, cid(conv), msg);
    expect(sent.status, sent.text).toBe(201);

    const bobWs = await eventsSocket(bob, bobClient);
    const got = await bobWs.find((e) => payloadType(e) === 'conversation.otr-message-add');
    expect(Buffer.from(payload(got).data.text, 'base64').toString()).toBe('hello, bob');
    bobWs.ack(got);
    await bobWs.close();

    const aliceWs = await eventsSocket(alice, aliceClient);
    const added = await aliceWs.next();
    expect(payloadType(added)).toBe('user.client-add');
    aliceWs.ack(added);
    const created = await aliceWs.next();
    expect(payloadType(created)).toBe('conversation.create');
    aliceWs.ack(created);
    await aliceWs.none();
    await aliceWs.close();
  });

  it('Events.testEventsForSpecificClients (client-addressed messages)', async () => {
    const [alice, bob] = await connectedUsers(2);
    const cid1 = await consumableClient(alice!);
    const cid2 = await legacyClient(alice!);
    const bobClient = await legacyClient(bob!);
    const conv = await newConv(bob!, { qualified_users: [qOf(alice!)] });
    const ws1 = await eventsSocket(alice!, cid1);
    const temp = await eventsSocket(alice!);
    await ws1.drain(300);
    await temp.drain(300);
    const to = (client: string, text: string) =>
      postOtr(
        pub,
        bob!.token,
        cid(conv),
        otrMessage(bobClient, [{ user: alice!.id, client, text }], { ignoreAll: {} }),
      );
    expect((await to(cid1, 'client1')).status).toBe(201);
    expect((await to(cid2, 'client2')).status).toBe(201);
    const e = await ws1.next();
    expect(payloadType(e)).toBe('conversation.otr-message-add');
    expect(Buffer.from(payload(e).data.text, 'base64').toString()).toBe('client1');
    ws1.ack(e);
    await ws1.none();
    await temp.none();
    await Promise.all([ws1.close(), temp.close()]);
  });

  it('Events.testConsumeEventsForDifferentUsers', async () => {
    const [alice, bob] = await Promise.all([createUser(pub, internal), createUser(pub, internal)]);
    const aliceClient = await consumableClient(alice);
    const bobClient = await consumableClient(bob);
    const aliceWs = await eventsSocket(alice, aliceClient);
    const bobWs = await eventsSocket(bob, bobClient);
    for (const [ws, client] of [
      [aliceWs, aliceClient],
      [bobWs, bobClient],
    ] as const) {
      const e = await ws.next();
      expect(payloadType(e)).toBe('user.client-add');
      expect(payload(e).client.id).toBe(client);
      await ws.none();
      ws.ack(e);
    }
    await Promise.all([aliceWs.close(), bobWs.close()]);
  });

  it('Events.testConsumeEventsWhileHavingLegacyClients', async () => {
    const alice = await createUser(pub, internal);
    const before = await getNotifications(pub, alice.token);
    expect(before.status).toBe(200);
    expect(before.body.notifications[0].payload[0].type).toBe('user.activate');
    const lastId = before.body.notifications.at(-1).id;
    const old = await legacyClient(alice);
    const oldWs = await socketOf(alice, old);
    const fresh = await consumableClient(alice);
    const oldNotif = await oldWs.next((n: any) => n?.payload?.[0]?.type === 'user.client-add');
    expect(oldNotif.payload[0].client.id).toBe(fresh);
    const ws = await eventsSocket(alice, fresh);
    const e = await ws.next();
    expect(payloadType(e)).toBe('user.client-add');
    expect(payload(e).client.id).toBe(fresh);
    await Promise.all([ws.close(), oldWs.close()]);
    const since = await getNotifications(pub, alice.token, { since: lastId });
    expect(since.status).toBe(200);
    expect(since.body.notifications.map((n: any) => n.payload[0].type).slice(0, 2)).toEqual([
      'user.client-add',
      'user.client-add',
    ]);
  });

  it('Events.testConsumeEventsAcks', async () => {
    const alice = await createUser(pub, internal);
    const client = await consumableClient(alice);
    let ws = await eventsSocket(alice, client);
    expect(payload(await ws.next()).client.id).toBe(client);
    await ws.close();
    ws = await eventsSocket(alice, client);
    const again = await ws.next();
    expect(payloadType(again)).toBe('user.client-add');
    expect(payload(again).client.id).toBe(client);
    ws.ack(again);
    await ws.close();
    ws = await eventsSocket(alice, client);
    await ws.none();
    await ws.close();
  });

  it('Events.testConsumeEventsMultipleAcks', async () => {
    const alice = await createUser(pub, internal);
    const client = await consumableClient(alice);
    const handle = randomHandle();
    await putHandle(alice, handle);
    let ws = await eventsSocket(alice, client);
    expect(payload(await ws.next()).client.id).toBe(client);
    const update = await ws.next();
    expect(payloadType(update)).toBe('user.update');
    expect(payload(update).user.handle).toBe(handle);
    ws.ack(update, true);
    await ws.close();
    ws = await eventsSocket(alice, client);
    await ws.none();
    await ws.close();
  });

  it('Events.testConsumeEventsAckNewEventWithoutAckingOldOne', async () => {
    const alice = await createUser(pub, internal);
    const client = await consumableClient(alice);
    const handle = randomHandle();
    await putHandle(alice, handle);
    let ws = await eventsSocket(alice, client);
    expect(payload(await ws.next()).client.id).toBe(client);
    const update = await ws.next();
    expect(payload(update).user.handle).toBe(handle);
    ws.ack(update);
    await ws.close();
    ws = await eventsSocket(alice, client);
    const redelivered = await ws.next();
    expect(payloadType(redelivered)).toBe('user.client-add');
    expect(payload(redelivered).client.id).toBe(client);
    ws.ack(redelivered);
    await ws.close();
    ws = await eventsSocket(alice, client);
    await ws.none();
    await ws.close();
  });

  it('Events.testTransientEventsDoNotTriggerDeadLetters', async () => {
    const alice = await createUser(pub, internal);
    const client = await consumableClient(alice);
    let ws = await eventsSocket(alice, client);
    const added = await ws.find((e) => payloadType(e) === 'user.client-add');
    expect(added.type).toBe('event');
    expect(payload(added).client.id).toBe(client);
    ws.ack(added);
    await ws.close();
    // The self conversation's id is the user's.
    expect((await typing(alice, qOf(alice), 'started')).status).toBe(200);
    ws = await eventsSocket(alice, client);
    await ws.none();
    await ws.close();
  });

  it('Events.testTransientEvents', async () => {
    const [alice, bob] = await connectedUsers(2);
    await consumableClient(alice!);
    const bobClient = await consumableClient(bob!);
    const conv = await newConv(alice!, { qualified_users: [qOf(bob!)] });
    const marker = randomUUID();
    let ws = await eventsSocket(bob!, bobClient, marker);
    await ws.untilSync(marker);
    expect((await typing(alice!, conv.qualified_id, 'started')).status).toBe(200);
    const t = await ws.next();
    expect(payloadType(t)).toBe('conversation.typing');
    expect(payload(t).qualified_conversation).toEqual(conv.qualified_id);
    ws.ack(t);
    await ws.close();
    const [h1] = await handleChanges(bob!, 1);
    expect((await typing(alice!, conv.qualified_id, 'stopped')).status).toBe(200);
    const [h2] = await handleChanges(bob!, 1);
    ws = await eventsSocket(bob!, bobClient);
    for (const h of [h1, h2]) {
      const e = await ws.next();
      expect(payloadType(e)).toBe('user.update');
      expect(payload(e).user.handle).toBe(h);
      ws.ack(e);
    }
    await ws.none();
    await ws.close();
  });

  it('Events.testSingleConsumer', async () => {
    const alice = await createUser(pub, internal);
    const client = await consumableClient(alice);
    const other = await legacyClient(alice);
    const ws = await eventsSocket(alice, client);
    const ws2 = await eventsSocket(alice, client);
    await ws2.none();
    const e1 = await ws.next();
    expect(e1.type).toBe('event');
    expect(payloadType(e1)).toBe('user.client-add');
    expect(payload(e1).client.id).toBe(client);
    await ws2.none(200);
    ws.ack(e1);
    await ws2.none(200);
    const e2 = await ws.next();
    expect(payload(e2).client.id).toBe(other);
    ws.ack(e2);
    await ws2.none(200);
    await Promise.all([ws.close(), ws2.close()]);
  });

  it('Events.testEndOfInitialSync', async () => {
    const alice = await createUser(pub, internal);
    const client = await consumableClient(alice);
    const n = 20;
    await handleChanges(alice, n);
    let marker = randomUUID();
    let ws = await eventsSocket(alice, client, marker);
    let events = [...(await ws.untilSync(marker)), ...(await ws.drain())];
    expect(events.length).toBe(n + 2);
    const [h] = await handleChanges(alice, 1);
    const e = await ws.next();
    expect(payload(e).user.handle).toBe(h);
    ws.ack(e);
    await ws.none();
    await ws.close();

    marker = randomUUID();
    ws = await eventsSocket(alice, client, marker);
    events = [...(await ws.untilSync(marker)), ...(await ws.drain())];
    expect(events.length).toBe(1);
    const [h2] = await handleChanges(alice, 1);
    const e2 = await ws.next();
    expect(payload(e2).user.handle).toBe(h2);
    ws.ack(e2);
    await ws.none();
    await ws.close();
  });

  it('Events.testEndOfInitialSyncMoreEventsAfterSyncMessage', async () => {
    const alice = await createUser(pub, internal);
    const client = await consumableClient(alice);
    const n = 20;
    await handleChanges(alice, n);
    const marker = randomUUID();
    const ws = await eventsSocket(alice, client, marker);
    await handleChanges(alice, n);
    const before = await ws.untilSync(marker);
    const after = await ws.drain();
    expect(before.length + after.length).toBe(n + n + 2);
    expect(after.length).toBeGreaterThanOrEqual(n);
    await ws.close();
  });

  it('Events.testEndOfInitialSyncIgnoreExpired (transient typing events)', async () => {
    const alice = await createUser(pub, internal);
    const client = await consumableClient(alice);
    const n = 20;
    await handleChanges(alice, n);
    for (let i = 0; i < n; i++) expect((await typing(alice, qOf(alice), 'started')).status).toBe(200);
    const marker = randomUUID();
    const ws = await eventsSocket(alice, client, marker);
    const events = [...(await ws.untilSync(marker)), ...(await ws.drain())];
    expect(events.length).toBe(n + 2);
    await ws.close();
  });

  it('Events.testEndOfInitialSyncAckMultiple', async () => {
    const alice = await createUser(pub, internal);
    const client = await consumableClient(alice);
    const n = 20;
    await handleChanges(alice, n);
    const marker = randomUUID();
    const ws = await eventsSocket(alice, client, marker);
    await ws.next();
    const second = await ws.next();
    ws.ack(second, true);
    const events = [...(await ws.untilSync(marker)), ...(await ws.drain())];
    expect(events.length).toBe(n - 2 + 2);
    await ws.close();
  });

  it('Events.testTypingIndicatorIsNotSentToOwnClient[federated=False]', async () => {
    const [alice, bob] = await connectedUsers(2);
    const aliceClient = await consumableClient(alice!);
    const bobClient = await consumableClient(bob!);
    const conv = await newConv(alice!, { qualified_users: [qOf(bob!)] });
    const aliceWs = await eventsSocket(alice!, aliceClient);
    const bobWs = await eventsSocket(bob!, bobClient);
    await aliceWs.drain(300);
    await bobWs.drain(300);
    for (const [from, to, self] of [
      [alice!, bobWs, aliceWs],
      [bob!, aliceWs, bobWs],
    ] as const) {
      expect((await typing(from, conv.qualified_id, 'started')).status).toBe(200);
      const e = await to.next();
      expect(payloadType(e)).toBe('conversation.typing');
      expect(payload(e).qualified_conversation).toEqual(conv.qualified_id);
      expect(payload(e).qualified_from).toEqual(qOf(from));
      to.ack(e);
      await self.none();
    }
    await Promise.all([aliceWs.close(), bobWs.close()]);
  });
});
