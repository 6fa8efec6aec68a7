import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A, B, connectAcross, startFederatedPair, type FederatedPair } from '../../helpers/federation.js';
import { api, connect, createUser, type TestUser } from '../../helpers/users.js';
import { openSocket, type TestSocket } from '../../helpers/websocket.js';

const typeOf = (m: any) => m?.payload?.[0]?.type;
const isFederationDelete = (m: any) => typeOf(m) === 'federation.delete';

/** example.com stops federating with b.example.com: what they shared is cleaned up. */
describe('federation: de-federation', () => {
  let pair: FederatedPair;
  let alice: TestUser;
  let carol: TestUser;
  let bob: TestUser;
  let aliceWs: TestSocket;
  let carolWs: TestSocket;

  beforeAll(async () => {
    // example.com keeps b.example.com in its dynamic list, so that removing it ends federation.
    pair = await startFederatedPair({
      a: [
        ['brig.yaml', ['optSettings', 'setFederationStrategy'], 'allowDynamic'],
        ['brig.yaml', ['optSettings', 'setFederationDomainConfigs'], []],
        ['brig.yaml', ['optSettings', 'setFederationDomainConfigsUpdateFreq'], 1],
      ],
    });
    const added = await api(pair.a.internalUrl).post('/i/federation/remotes', {
      domain: B,
      search_policy: 'full_search',
    });
    expect(added.status).toBe(200);
    [alice, carol, bob] = await Promise.all([
      createUser(pair.a.publicUrl, pair.a.internalUrl, { name: 'Alice' }),
      createUser(pair.a.publicUrl, pair.a.internalUrl, { name: 'Carol' }),
      createUser(pair.b.publicUrl, pair.b.internalUrl, { name: 'Bob' }),
    ]);
    await connect(pair.a.publicUrl, alice, carol);
    await connectAcross({ user: alice, backend: pair.a, domain: A }, { user: bob, backend: pair.b, domain: B });
    aliceWs = await openSocket(pair.a.publicUrl, `/v8/await?access_token=${alice.token}`);
    carolWs = await openSocket(pair.a.publicUrl, `/v8/await?access_token=${carol.token}`);
  });
  afterAll(async () => {
    await aliceWs?.close();
    await carolWs?.close();
    await pair?.stop();
  });

  it('removes the remote from the dynamic list; the static list keeps its remotes (533)', async () => {
    const listed = await api(pair.b.internalUrl).del(`/i/federation/remotes/${A}`);
    expect(listed.status, listed.text).toBe(533);
    expect(listed.body.label).toBe('federation-unexpected-wai-error');
    const remotes = await api(pair.b.internalUrl).get('/i/federation/remotes');
    expect(remotes.body.remotes.map((r: { domain: string }) => r.domain)).toContain(A);
  });

  it('cleans up conversations, connections and queued notifications, with federation.delete twice', async () => {
    const asAlice = api(pair.a.publicUrl, alice.token);
    const ours = await asAlice.post('/v8/conversations', {
      name: 'ours',
      qualified_users: [
        { id: carol.id, domain: A },
        { id: bob.id, domain: B },
      ],
    });
    expect(ours.status, ours.text).toBe(201);
    const oursId = ours.body.qualified_id;
    const theirs = await api(pair.b.publicUrl, bob.token).post('/v8/conversations', {
      name: 'theirs',
      qualified_users: [{ id: alice.id, domain: A }],
    });
    expect(theirs.status, theirs.text).toBe(201);
    const theirsId = theirs.body.qualified_id;
    await aliceWs.next(
      (m) => typeOf(m) === 'conversation.create' && m.payload[0].qualified_conversation.id === theirsId.id,
    );

    // b.example.com is down: a change of ours waits for it in the outbox.
    await pair.down('b');
    expect((await asAlice.put(`/v8/conversations/${A}/${oursId.id}/name`, { name: 'renamed' })).status).toBe(200);
    const waiting = () => pair.a.query('SELECT count(*) AS n FROM federation_outbox WHERE domain = ?', B);
    expect((await waiting())[0]!.n).toBeGreaterThan(0);

    const removed = await api(pair.a.internalUrl).del(`/i/federation/remotes/${B}`);
    expect(removed.status, removed.text).toBe(200);

    for (const ws of [aliceWs, carolWs]) {
      const first = await ws.next(isFederationDelete);
      expect(first.payload).toEqual([{ type: 'federation.delete', domain: B }]);
      const left = await ws.next((m) => typeOf(m) === 'conversation.member-leave');
      expect(left.payload[0]).toMatchObject({
        qualified_conversation: oursId,
        data: { qualified_user_ids: [{ id: bob.id, domain: B }], reason: 'removed' },
      });
      await ws.next(isFederationDelete);
    }

    const seen = await asAlice.get(`/v8/conversations/${A}/${oursId.id}`);
    expect(seen.body.members.others.map((m: any) => m.qualified_id)).toEqual([{ id: carol.id, domain: A }]);
    expect((await asAlice.get(`/v8/conversations/${B}/${theirsId.id}`)).status).toBe(404);
    const ids = await asAlice.post('/v8/conversations/list-ids', {});
    expect(ids.body.qualified_conversations).not.toContainEqual(theirsId);
    const connections = await asAlice.post('/v8/list-connections', {});
    expect(connections.body.connections.map((c: any) => c.qualified_to.domain)).not.toContain(B);
    expect((await waiting())[0]!.n).toBe(0);

    // Each user hears federation.delete once per round, however much they shared; no conversation.delete.
    const stream = await asAlice.get('/v8/notifications?size=1000');
    const types = stream.body.notifications.map((n: any) => n.payload[0].type);
    expect(types.filter((t: string) => t === 'federation.delete')).toHaveLength(2);
    expect(types).not.toContain('conversation.delete');
  }, 60_000);
});
