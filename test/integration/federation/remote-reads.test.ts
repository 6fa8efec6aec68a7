import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A, B, type FederatedPair, startPairWithConnectedUsers } from '../../helpers/federation.js';
import { api, type TestUser } from '../../helpers/users.js';

/** Reading what another backend owns, asked of the owner (get-conversations). */
describe('federation: conversations read from their owner', () => {
  let pair: FederatedPair;
  let alice: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    ({ pair, alice, bob } = await startPairWithConnectedUsers());
  });
  afterAll(async () => {
    await pair?.stop();
  });

  it('lists conversations of other backends as their owners have them: found, not found or failed', async () => {
    const created = await api(pair.a.publicUrl, alice.token).post('/v8/conversations', {
      name: 'owned by example.com',
      qualified_users: [{ id: bob.id, domain: B }],
      conversation_role: 'wire_member',
    });
    expect(created.status, created.text).toBe(201);
    const shared = created.body.qualified_id;
    const alone = await api(pair.a.publicUrl, alice.token).post('/v8/conversations', {
      name: 'alone',
      qualified_users: [],
    });
    const notBobs = alone.body.qualified_id;
    const elsewhere = { id: crypto.randomUUID(), domain: 'unknown.example.org' };

    const listed = await api(pair.b.publicUrl, bob.token).post('/v8/conversations/list', {
      qualified_ids: [shared, notBobs, elsewhere],
    });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.found).toHaveLength(1);
    expect(listed.body.found[0]).toMatchObject({
      qualified_id: shared,
      name: 'owned by example.com',
      creator: alice.id,
      protocol: 'proteus',
      members: {
        self: { qualified_id: { id: bob.id, domain: B }, conversation_role: 'wire_member' },
        others: [{ qualified_id: { id: alice.id, domain: A }, conversation_role: 'wire_admin' }],
      },
    });
    expect(listed.body.not_found).toEqual([notBobs]);
    expect(listed.body.failed).toEqual([elsewhere]);
  });

  it('answers get-conversations with the members it asks for only', async () => {
    const created = await api(pair.a.publicUrl, alice.token).post('/v8/conversations', {
      name: 'asked directly',
      qualified_users: [{ id: bob.id, domain: B }],
    });
    const conv = created.body.qualified_id.id;
    const ask = (user: string) =>
      fetch(`${pair.a.internalUrl}/federation/galley/get-conversations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'wire-origin-domain': B, 'x-svc-api-version': 'v2' },
        body: JSON.stringify({ user_id: user, conv_ids: [conv] }),
      }).then((r) => r.json() as Promise<any>);
    const answer = await ask(bob.id);
    expect(answer.convs).toEqual([
      expect.objectContaining({
        id: conv,
        metadata: expect.objectContaining({ type: 0, name: 'asked directly', access_role: expect.any(Array) }),
        members: {
          self_role: 'wire_admin',
          others: [expect.objectContaining({ qualified_id: { id: alice.id, domain: A } })],
        },
        protocol: { protocol: 'proteus' },
      }),
    ]);
    expect((await ask(crypto.randomUUID())).convs).toEqual([]);
  });
});
