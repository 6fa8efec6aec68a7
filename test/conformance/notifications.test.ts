// Scenarios of wire-server's integration/test/Test/Notifications.hs and MLS/Notifications.hs. Where
// the original pushes through gundeck's internal API, the notifications here come from public
// actions (handle changes, messages to one client).
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { addClient } from '../helpers/clients.js';
import { otrMessage, postOtr } from '../helpers/otr.js';
import type { TestUser } from '../helpers/users.js';
import { awaitEvent, connectedUsers, newConv, pub, qOf, socketOf } from './lib/env.js';
import { putHandle, randomHandle } from './lib/events.js';
import { addUsers, device, mlsConv, sendMessage } from './lib/mls.js';
import { getLastNotification, getNotification, getNotifications } from '../helpers/endpoints/gundeck.js';

/** A v1 time-based UUID (what notification ids are), made up. */
function uuidV1(): string {
  const hex = randomUUID().replace(/-/g, '').split('');
  hex[12] = '1';
  const h = hex.join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

describe('Notifications', () => {
  it('Notifications.testFetchAllNotifications (handle changes as the pushes)', async () => {
    const [user] = (await connectedUsers(1)) as [TestUser];
    const client = await addClient(pub, user);
    const handles: string[] = [];
    for (let i = 0; i < 10; i++) {
      handles.push(randomHandle());
      await putHandle(user, handles.at(-1)!);
    }
    const r = await getNotifications(pub, user.token, { client });
    expect(r.status).toBe(200);
    const updates = r.body.notifications.filter((n: any) => n.payload[0].type === 'user.update');
    expect(updates.map((n: any) => n.payload[0].user.handle)).toEqual(handles);
    const first = r.body.notifications[0];
    const one = await getNotification(pub, user.token, first.id, { client });
    expect(one.status).toBe(200);
    expect(one.body).toEqual(first);
    const last = await getLastNotification(pub, user.token, { client });
    expect(last.status).toBe(200);
    expect(last.body).toEqual(r.body.notifications.at(-1));
  });

  it('Notifications.testLastNotification (messages to one client as the pushes)', async () => {
    const [user, sender] = (await connectedUsers(2)) as [TestUser, TestUser];
    const clients: Record<string, string> = {};
    for (const c of ['a', 'b', 'c', 'd', 'e', 'f'])
      clients[c] = await addClient(pub, user, { password: user.password });
    const from = await addClient(pub, sender);
    const conv = await newConv(sender, { qualified_users: [qOf(user)] });
    for (const c of Object.keys(clients)) {
      const msg = otrMessage(from, [{ user: user.id, client: clients[c]!, text: c }], { ignoreAll: {} });
      expect((await postOtr(pub, sender.token, conv.qualified_id.id, msg)).status).toBe(201);
    }
    const last = await getLastNotification(pub, user.token, { client: clients.c });
    expect(last.status).toBe(200);
    expect(Buffer.from(last.body.payload[0].data.text, 'base64').toString()).toBe('c');
  });

  it('Notifications.testInvalidNotification', async () => {
    const [user] = (await connectedUsers(1)) as [TestUser];
    expect((await getNotifications(pub, user.token, { since: randomUUID() })).status).toBe(400);
    expect((await getNotifications(pub, user.token, { since: uuidV1() })).status).toBe(404);
  });

  it('Notifications.testAddClientNotification', async () => {
    const [alice] = (await connectedUsers(1)) as [TestUser];
    const ws = await socketOf(alice);
    await addClient(pub, alice);
    const e = await awaitEvent(ws, 'user.client-add');
    await ws.close();
    expect(Array.isArray(e.client.capabilities.capabilities)).toBe(true);
  });

  it('MLS.Message.testMessageNotifications[OwnDomain]', async () => {
    const [alice, bob] = (await connectedUsers(2)) as [TestUser, TestUser];
    const [a1, , b1] = await Promise.all([device(alice), device(alice), device(bob), device(bob)]);
    const conv = await mlsConv(a1);
    let ws = await socketOf(bob);
    expect((await addUsers(a1, conv, [alice, bob])).refused).toBeUndefined();
    await awaitEvent(ws, 'conversation.member-join');
    await ws.close();
    const count = async (client?: string) => {
      const r = await getNotifications(pub, bob.token, { size: 10000, client });
      expect(r.status).toBe(200);
      expect(r.body.has_more).toBe(false);
      return r.body.notifications.length;
    };
    const before = await count();
    const beforeClient = await count(b1!.client);
    ws = await socketOf(bob);
    expect((await sendMessage(a1, conv, 'hi bob')).status).toBe(201);
    await awaitEvent(ws, 'conversation.mls-message-add');
    await ws.close();
    expect(await count()).toBe(before + 1);
    expect(await count(b1!.client)).toBe(beforeClient + 1);
  });
});
