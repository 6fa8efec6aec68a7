import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestBackend } from '../../helpers/backend.js';
import {
  A,
  B,
  connectAcross,
  federatingWith,
  startFederatedPair,
  startThirdBackend,
  type FederatedPair,
} from '../../helpers/federation.js';
import { api, connect, createUser, type TestUser } from '../../helpers/users.js';
import { openSocket, type TestSocket } from '../../helpers/websocket.js';
import { listConnections } from '../../helpers/endpoints/brig.js';
import {
  getConversation,
  listConversationIds,
  postConversation,
  putConversationName,
} from '../../helpers/endpoints/galley.js';
import { getNotifications } from '../../helpers/endpoints/gundeck.js';

const typeOf = (m: any) => m?.payload?.[0]?.type;
const isFederationDelete = (domain: string) => (m: any) =>
  typeOf(m) === 'federation.delete' && m.payload[0].domain === domain;

const C = 'c.example.com';

/** example.com stops federating with c.example.com, then with b.example.com: what they shared is cleaned up. */
describe('federation: de-federation', () => {
  let pair: FederatedPair;
  let third: TestBackend;
  let alice: TestUser;
  let carol: TestUser;
  let bob: TestUser;
  let dave: TestUser;
  let aliceWs: TestSocket;
  let carolWs: TestSocket;
  let bobWs: TestSocket;

  beforeAll(async () => {
    // example.com keeps its remotes in the dynamic list, so that removing one ends federation.
    pair = await startFederatedPair({
      a: [
        ['brig.yaml', ['optSettings', 'setFederationStrategy'], 'allowDynamic'],
        ['brig.yaml', ['optSettings', 'setFederationDomainConfigs'], []],
        ['brig.yaml', ['optSettings', 'setFederationDomainConfigsUpdateFreq'], 1],
      ],
      b: [federatingWith(A, C)],
    });
    third = await startThirdBackend(pair, C);
    for (const domain of [B, C]) {
      const added = await api(pair.a.internalUrl).post('/i/federation/remotes', {
        domain,
        search_policy: 'full_search',
      });
      expect(added.status).toBe(200);
    }
    [alice, carol, bob, dave] = await Promise.all([
      createUser(pair.a.publicUrl, pair.a.internalUrl, { name: 'Alice' }),
      createUser(pair.a.publicUrl, pair.a.internalUrl, { name: 'Carol' }),
      createUser(pair.b.publicUrl, pair.b.internalUrl, { name: 'Bob' }),
      createUser(third.publicUrl, third.internalUrl, { name: 'Dave' }),
    ]);
    await connect(pair.a.publicUrl, alice, carol);
    await connectAcross({ user: alice, backend: pair.a, domain: A }, { user: bob, backend: pair.b, domain: B });
    await connectAcross({ user: bob, backend: pair.b, domain: B }, { user: dave, backend: third, domain: C });
    aliceWs = await openSocket(pair.a.publicUrl, `/v8/await?access_token=${alice.token}`);
    carolWs = await openSocket(pair.a.publicUrl, `/v8/await?access_token=${carol.token}`);
    bobWs = await openSocket(pair.b.publicUrl, `/v8/await?access_token=${bob.token}`);
  }, 60_000);
  afterAll(async () => {
    await aliceWs?.close();
    await carolWs?.close();
    await bobWs?.close();
    await third?.stop();
    await pair?.stop();
  });

  it('tells the other remotes, who separate the two backends in their conversations', async () => {
    const trio = await postConversation(pair.b.publicUrl, bob.token, {
      name: 'trio',
      qualified_users: [
        { id: alice.id, domain: A },
        { id: dave.id, domain: C },
      ],
    });
    expect(trio.status, trio.text).toBe(201);
    const trioId = trio.body.qualified_id;
    await aliceWs.next(
      (m) => typeOf(m) === 'conversation.create' && m.payload[0].qualified_conversation.id === trioId.id,
    );

    expect((await api(pair.a.internalUrl).del(`/i/federation/remotes/${C}`)).status).toBe(200);

    const isRemoved = (m: any) => typeOf(m) === 'federation.connectionRemoved';
    expect((await bobWs.next(isRemoved, 20_000)).payload).toEqual([
      { type: 'federation.connectionRemoved', domains: [A, C] },
    ]);
    const left = await bobWs.next((m) => typeOf(m) === 'conversation.member-leave');
    expect(left.payload[0]).toMatchObject({ qualified_conversation: trioId, data: { reason: 'removed' } });
    expect(left.payload[0].data.qualified_user_ids).toEqual(
      expect.arrayContaining([
        { id: alice.id, domain: A },
        { id: dave.id, domain: C },
      ]),
    );
    await bobWs.next(isRemoved);
    // Alice's backend is told by the owner: she left, and her copy goes.
    const aliceLeft = await aliceWs.next(
      (m) => typeOf(m) === 'conversation.member-leave' && m.payload[0].qualified_conversation.id === trioId.id,
    );
    expect(aliceLeft.payload[0].data.qualified_user_ids).toContainEqual({ id: alice.id, domain: A });
    // She shared that conversation with Dave: her own backend told her it stopped federating with his.
    await aliceWs.next(isFederationDelete(C));
    await aliceWs.next(isFederationDelete(C));
    const seen = await getConversation(pair.b.publicUrl, bob.token, { domain: B, id: trioId.id });
    expect(seen.body.members.others).toEqual([]);
    const stream = await getNotifications(pair.b.publicUrl, bob.token, { size: 1000 });
    const types = stream.body.notifications.map((n: any) => n.payload[0].type);
    expect(types.filter((t: string) => t === 'federation.connectionRemoved')).toHaveLength(2);
  }, 60_000);

  it('removes the remote from the dynamic list; the static list keeps its remotes (533)', async () => {
    const listed = await api(pair.b.internalUrl).del(`/i/federation/remotes/${A}`);
    expect(listed.status, listed.text).toBe(533);
    expect(listed.body.label).toBe('federation-unexpected-wai-error');
    const remotes = await api(pair.b.internalUrl).get('/i/federation/remotes');
    expect(remotes.body.remotes.map((r: { domain: string }) => r.domain)).toContain(A);
  });

  it('cleans up conversations, connections and queued notifications, with federation.delete twice', async () => {
    const ours = await postConversation(pair.a.publicUrl, alice.token, {
      name: 'ours',
      qualified_users: [
        { id: carol.id, domain: A },
        { id: bob.id, domain: B },
      ],
    });
    expect(ours.status, ours.text).toBe(201);
    const oursId = ours.body.qualified_id;
    const theirs = await postConversation(pair.b.publicUrl, bob.token, {
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
    expect(
      (await putConversationName(pair.a.publicUrl, alice.token, { domain: A, id: oursId.id }, { name: 'renamed' }))
        .status,
    ).toBe(200);
    const waiting = () => pair.a.query('SELECT count(*) AS n FROM federation_outbox WHERE domain = ?', B);
    expect((await waiting())[0]!.n).toBeGreaterThan(0);

    const removed = await api(pair.a.internalUrl).del(`/i/federation/remotes/${B}`);
    expect(removed.status, removed.text).toBe(200);

    for (const ws of [aliceWs, carolWs]) {
      const first = await ws.next(isFederationDelete(B));
      expect(first.payload).toEqual([{ type: 'federation.delete', domain: B }]);
      const left = await ws.next(
        (m) => typeOf(m) === 'conversation.member-leave' && m.payload[0].qualified_conversation.id === oursId.id,
      );
      expect(left.payload[0]).toMatchObject({
        qualified_conversation: oursId,
        data: { qualified_user_ids: [{ id: bob.id, domain: B }], reason: 'removed' },
      });
      await ws.next(isFederationDelete(B));
    }

    const seen = await getConversation(pair.a.publicUrl, alice.token, { domain: A, id: oursId.id });
    expect(seen.body.members.others.map((m: any) => m.qualified_id)).toEqual([{ id: carol.id, domain: A }]);
    expect(await pair.a.query('SELECT id FROM conversation_copies WHERE domain = ?', B)).toEqual([]);
    const ids = await listConversationIds(pair.a.publicUrl, alice.token, {});
    expect(ids.body.qualified_conversations).not.toContainEqual(theirsId);
    const connections = await listConnections(pair.a.publicUrl, alice.token, {});
    expect(connections.body.connections.map((c: any) => c.qualified_to.domain)).not.toContain(B);
    expect((await waiting())[0]!.n).toBe(0);

    // Each user hears federation.delete once per round, however much they shared; no conversation.delete.
    const stream = await getNotifications(pair.a.publicUrl, alice.token, { size: 1000 });
    const events = stream.body.notifications.map((n: any) => n.payload[0]);
    const types = events.map((e: any) => e.type);
    expect(events.filter((e: any) => e.type === 'federation.delete' && e.domain === B)).toHaveLength(2);
    expect(types).not.toContain('conversation.delete');
  }, 60_000);
});
