import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A, B, connectAcross, startFederatedPair, type FederatedPair } from '../../helpers/federation.js';
import { api, createUser, type TestUser } from '../../helpers/users.js';
import { openSocket, type TestSocket } from '../../helpers/websocket.js';

const eventOf = (type: string, conv?: string) => (m: any) =>
  m?.payload?.[0]?.type === type && (conv === undefined || m.payload[0].qualified_conversation?.id === conv);

/** A conversation owned by one backend with members on the other: created, listed, changed. */
describe('federation: conversations across two backends', () => {
  let pair: FederatedPair;
  let alice: TestUser;
  let bob: TestUser;
  let bobWs: TestSocket;

  beforeAll(async () => {
    pair = await startFederatedPair();
    [alice, bob] = await Promise.all([
      createUser(pair.a.publicUrl, pair.a.internalUrl, { name: 'Alice' }),
      createUser(pair.b.publicUrl, pair.b.internalUrl, { name: 'Bob' }),
    ]);
    await connectAcross({ user: alice, backend: pair.a, domain: A }, { user: bob, backend: pair.b, domain: B });
    bobWs = await openSocket(pair.b.publicUrl, `/v8/await?access_token=${bob.token}`);
  });
  afterAll(async () => {
    await bobWs?.close();
    await pair?.stop();
  });

  const asAlice = () => api(pair.a.publicUrl, alice.token);
  const asBob = () => api(pair.b.publicUrl, bob.token);

  it('creates a Proteus conversation with a remote member, who gets it and sees it listed', async () => {
    const created = await asAlice().post('/v8/conversations', {
      name: 'across',
      qualified_users: [{ id: bob.id, domain: B }],
    });
    expect(created.status, created.text).toBe(201);
    const conv = created.body.qualified_id;
    expect(conv.domain).toBe(A);
    expect(created.body.members.others).toEqual([
      expect.objectContaining({ qualified_id: { id: bob.id, domain: B }, conversation_role: 'wire_admin' }),
    ]);

    const announced = await bobWs.next(eventOf('conversation.create', conv.id));
    expect(announced.payload[0]).toMatchObject({
      qualified_conversation: conv,
      qualified_from: { id: alice.id, domain: A },
      data: {
        name: 'across',
        members: { self: { id: bob.id }, others: [{ qualified_id: { id: alice.id, domain: A } }] },
      },
    });
    const seen = await asBob().get(`/v8/conversations/${A}/${conv.id}`);
    expect(seen.status, seen.text).toBe(200);
    expect(seen.body).toMatchObject({ qualified_id: conv, name: 'across' });
    const ids = await asBob().post('/v8/conversations/list-ids', {});
    expect(ids.body.qualified_conversations).toContainEqual(conv);
  });

  it("tells the remote member of the owner's changes", async () => {
    const created = await asAlice().post('/v8/conversations', {
      name: 'before',
      qualified_users: [{ id: bob.id, domain: B }],
    });
    const conv = created.body.qualified_id;
    expect((await asAlice().put(`/v8/conversations/${A}/${conv.id}/name`, { name: 'after' })).status).toBe(200);
    const renamed = await bobWs.next(eventOf('conversation.rename', conv.id));
    expect(renamed.payload[0]).toMatchObject({ qualified_from: { id: alice.id, domain: A }, data: { name: 'after' } });
    expect((await asBob().get(`/v8/conversations/${A}/${conv.id}`)).body.name).toBe('after');
  });

  it('refuses remote users one is not connected to', async () => {
    const stranger = await createUser(pair.b.publicUrl, pair.b.internalUrl);
    const r = await asAlice().post('/v8/conversations', { qualified_users: [{ id: stranger.id, domain: B }] });
    expect(r.status, r.text).toBe(403);
    expect(r.body.label).toBe('not-connected');
  });
});
