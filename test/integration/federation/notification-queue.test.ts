import { waitFor } from '../../helpers/wait.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addClient } from '../../helpers/clients.js';
import { A, B, connectAcross, startFederatedPair, type FederatedPair } from '../../helpers/federation.js';
import { createUser, type TestUser } from '../../helpers/users.js';
import { openSocket } from '../../helpers/websocket.js';
import { deleteSelf, getConnection } from '../../helpers/endpoints/brig.js';
import { postConversation } from '../../helpers/endpoints/galley.js';
import { getNotifications } from '../../helpers/endpoints/gundeck.js';
import { noise } from '../../helpers/bytes.js';
import { bytesOf, TsMlsGroup, tsMlsDevice } from '../../helpers/ts-mls-crafted.js';

/**
 * Retries after a minute at the earliest: a restarted remote gets its notifications within seconds
 * only because the pusher asks it every 2 s whether it answers again.
 */
const slowRetries: [string, string[], unknown] = [
  'background-worker.yaml',
  ['backendNotificationPusher'],
  { pushBackoffMinWait: 60_000_000, pushBackoffMaxWait: 300_000_000, remotesRefreshInterval: 1_000_000 },
];

/**
 * Notifications to another backend wait in the background worker's queue while it is down and
 * arrive, all of them and in order, once it is back.
 */
describe('federation: queued notifications', () => {
  let pair: FederatedPair;

  beforeAll(async () => {
    pair = await startFederatedPair({ a: [slowRetries] });
  });
  afterAll(() => pair?.stop());

  const deleteUser = async (u: TestUser) =>
    expect((await deleteSelf(pair.a.publicUrl, u.token, { password: u.password })).status).toBe(200);

  /** Alice on example.com and Bob on b.example.com, connected; Bob's websocket open. */
  async function contactsWithBobListening() {
    const [alice, bob] = await Promise.all([
      createUser(pair.a.publicUrl, pair.a.internalUrl),
      createUser(pair.b.publicUrl, pair.b.internalUrl),
    ]);
    await connectAcross(
      { user: alice, backend: pair.a, domain: A },
      { user: bob, backend: pair.b, domain: 'b.example.com' },
    );
    return { alice, bob, ws: await openSocket(pair.b.publicUrl, `/v8/await?access_token=${bob.token}`) };
  }

  it("tells a remote contact of a user's deletion at once when the remote is up", async () => {
    const { alice, bob, ws } = await contactsWithBobListening();
    await deleteUser(alice);
    const event = await ws.next((m) => m?.payload?.[0]?.type === 'user.delete');
    expect(event.payload[0]).toEqual({ type: 'user.delete', id: alice.id, qualified_id: { id: alice.id, domain: A } });
    // Bob's side of the connection went with the change that told him.
    expect((await getConnection(pair.b.publicUrl, bob.token, { domain: A, id: alice.id })).status).toBe(404);
    await ws.close();
  });

  it('pushes a notification whose wake-up was lost when the periodic jobs run', async () => {
    const { alice, bob, ws } = await contactsWithBobListening();
    // A row written as queueing writes it, with no wake-up sent (as if the worker stopped there).
    await pair.a.query(
      'INSERT INTO federation_outbox (domain, component, rpc, bundle, queued_at) VALUES (?, ?, ?, ?, ?)',
      'b.example.com',
      'brig',
      'on-user-deleted-connections',
      JSON.stringify({ 0: { user: alice.id, connections: [bob.id] } }),
      Date.now(),
    );
    await pair.a.runScheduled();
    const event = await ws.next((m) => m?.payload?.[0]?.type === 'user.delete');
    expect(event.payload[0].qualified_id).toEqual({ id: alice.id, domain: A });
    await ws.close();
  });

  it('takes a batch in order, each notification as a call of its own would be taken', async () => {
    const [alice, bob] = await Promise.all([
      createUser(pair.a.publicUrl, pair.a.internalUrl),
      createUser(pair.b.publicUrl, pair.b.internalUrl),
    ]);
    await connectAcross({ user: alice, backend: pair.a, domain: A }, { user: bob, backend: pair.b, domain: B });
    const bobClient = await addClient(pair.b.publicUrl, bob);
    const created = await postConversation(pair.a.publicUrl, alice.token, {
      qualified_users: [{ id: bob.id, domain: B }],
    });
    expect(created.status, created.text).toBe(201);
    const ws = await openSocket(pair.b.publicUrl, `/v8/await?access_token=${bob.token}&client=${bobClient}`);
    const message = (text: string) => ({
      component: 'galley',
      rpc: 'on-message-sent',
      body: {
        time: new Date().toISOString(),
        data: null,
        sender: { id: alice.id, domain: A },
        sender_client: 'a1',
        conversation: created.body.qualified_id.id,
        transient: false,
        recipients: { [bob.id]: { [bobClient]: Buffer.from(text).toString('base64') } },
      },
    });
    const batch = await fetch(new URL('/federation/galley/svc-notification-batch', pair.b.internalUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'wire-origin-domain': A, 'x-svc-api-version': 'v2' },
      body: JSON.stringify({
        notifications: [
          message('one'),
          { ...message('none'), body: { conversation: 'not a conversation' } },
          message('two'),
          { component: 'brig', rpc: 'on-no-such-thing', body: {} },
          { component: 'brig', rpc: 'on-user-deleted-connections', body: { user: alice.id, connections: [bob.id] } },
        ],
      }),
    });
    expect(batch.status).toBe(200);
    expect(await batch.json()).toEqual({
      outcomes: [
        { taken: true },
        expect.objectContaining({ code: 400, label: 'bad-request' }),
        { taken: true },
        expect.objectContaining({ code: 404, label: 'no-endpoint' }),
        { taken: true },
      ],
    });
    const texts = [];
    for (const _ of ['one', 'two'])
      texts.push((await ws.next((m) => m?.payload?.[0]?.type === 'conversation.otr-message-add')).payload[0].data.text);
    expect(texts.map((t) => Buffer.from(t, 'base64').toString())).toEqual(['one', 'two']);
    expect((await ws.next((m) => m?.payload?.[0]?.type === 'user.delete')).payload[0].id).toBe(alice.id);
    await ws.close();
  });

  it("queues a large MLS group's commit to a remote member in parts, and delivers it whole", async () => {
    const [alice, bob] = await Promise.all([
      createUser(pair.a.publicUrl, pair.a.internalUrl),
      createUser(pair.b.publicUrl, pair.b.internalUrl),
    ]);
    await connectAcross({ user: alice, backend: pair.a, domain: A }, { user: bob, backend: pair.b, domain: B });
    const [a1, b1] = await Promise.all([
      tsMlsDevice(pair.a.publicUrl, alice),
      tsMlsDevice(pair.b.publicUrl, bob, { domain: B }),
    ]);
    const group = await TsMlsGroup.create(pair.a.publicUrl, a1);
    await group.commit(a1, { add: [b1] });
    // A commit of 2.5 MiB (a 10,000-member group's update commit is about 3.5 MB): told to
    // b.example.com through rows of at most 2 MB (the object's record, D1's pending effects, the queue).
    const big = await group.prepare(a1, { authenticatedData: noise(2.5 * 1024 * 1024) });
    await group.send(big);

    const commit = Buffer.from(bytesOf(big.commit)).toString('base64');
    await waitFor(
      async () => {
        const r = await getNotifications(pair.b.publicUrl, b1.token, { client: b1.client, size: 100 });
        const events = r.body.notifications.flatMap((n: { payload: Array<{ data?: unknown }> }) => n.payload);
        return events.some((e: { data?: unknown }) => e.data === commit) ? true : undefined;
      },
      "the commit in bob's client's notifications at b.example.com",
      60_000,
    );
    await waitFor(
      async () => ((await pair.a.query('SELECT seq FROM federation_outbox')).length === 0 ? true : undefined),
      'the queue for b.example.com emptied',
    );
    expect(await pair.a.query('SELECT seq FROM federation_outbox_parts')).toEqual([]);
    expect(await pair.a.query('SELECT id FROM pending_effect_parts')).toEqual([]);
  }, 120_000);

  it('keeps notifications while the remote is down and delivers them in order seconds after it answers again', async () => {
    const [alice, carol, bob] = await Promise.all([
      createUser(pair.a.publicUrl, pair.a.internalUrl),
      createUser(pair.a.publicUrl, pair.a.internalUrl),
      createUser(pair.b.publicUrl, pair.b.internalUrl),
    ]);
    for (const u of [alice, carol])
      await connectAcross(
        { user: u, backend: pair.a, domain: A },
        { user: bob, backend: pair.b, domain: 'b.example.com' },
      );
    await pair.down('b');
    await deleteUser(alice);
    await deleteUser(carol);
    // Both wait (with what their 1:1s with Bob hear), and the pusher has failed to deliver them at least once.
    const waiting = await waitFor(async () => {
      const rows = await pair.a.query(
        "SELECT f.domain FROM federation_outbox f JOIN federation_backoff b USING (domain) WHERE f.rpc = 'on-user-deleted-connections'",
      );
      return rows.length === 2 ? rows : undefined;
    }, 'a failed delivery');
    expect(waiting).toHaveLength(2);

    const b = await pair.up('b');
    const ws = await openSocket(b.publicUrl, `/v8/await?access_token=${bob.token}`);
    pair.announce('b');
    const inward = (rpc: string) =>
      new RegExp(`svc_federator_inward_requests_total\\{component="\\w+",rpc="${rpc}",status="200"\\} \\d+`);
    // Well within the minute's backoff: the next probe finds it answering.
    const first = await ws.next((m) => m?.payload?.[0]?.type === 'user.delete', 10_000);
    const second = await ws.next((m) => m?.payload?.[0]?.type === 'user.delete' && m !== first);
    expect([first.payload[0].id, second.payload[0].id]).toEqual([alice.id, carol.id]);
    await ws.close();
    await waitFor(
      async () => ((await pair.a.query('SELECT seq FROM federation_outbox')).length === 0 ? true : undefined),
      'an empty outbox',
    );
    expect(await pair.a.query('SELECT domain FROM federation_backoff')).toEqual([]);
    // All of them in batches: no notification came in a call of its own.
    expect(b.federator!.metrics.text()).toMatch(inward('svc-notification-batch'));
    expect(b.federator!.metrics.text()).not.toMatch(inward('on-[a-z-]+'));
  });
});
