import { waitFor } from '../../helpers/wait.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A, connectAcross, startFederatedPair, type FederatedPair } from '../../helpers/federation.js';
import { api, createUser, type TestUser } from '../../helpers/users.js';
import { openSocket } from '../../helpers/websocket.js';

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
    expect((await api(pair.a.publicUrl, u.token).del('/v8/self', { password: u.password })).status).toBe(200);

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
    const { alice, ws } = await contactsWithBobListening();
    await deleteUser(alice);
    const event = await ws.next((m) => m?.payload?.[0]?.type === 'user.delete');
    expect(event.payload[0]).toEqual({ type: 'user.delete', id: alice.id, qualified_id: { id: alice.id, domain: A } });
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
  });
});
