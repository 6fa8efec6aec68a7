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
import { conversationNames } from '../../helpers/conversation-names.js';
import { createUser, type TestUser } from '../../helpers/users.js';
import { addMembers, getConversation, postConversation } from '../../helpers/endpoints/galley.js';

const C = 'c.example.com';

/**
 * Who may share a conversation: example.com federates with b.example.com and c.example.com, but
 * b.example.com does not federate with c.example.com, and b.example.com keeps Proteus out of the
 * conversations it owns with users of other backends (galley's federationProtocols).
 */
describe('federation: protocols and backends that do not federate with each other', () => {
  let pair: FederatedPair;
  let third: TestBackend;
  let alice: TestUser;
  let bob: TestUser;
  let dave: TestUser;

  beforeAll(async () => {
    pair = await startFederatedPair({
      a: [federatingWith(B, C)],
      b: [federatingWith(A), ['galley.yaml', ['settings', 'federationProtocols'], ['mls']]],
    });
    third = await startThirdBackend(pair, C);
    [alice, bob, dave] = await Promise.all([
      createUser(pair.a.publicUrl, pair.a.internalUrl, { name: 'Alice' }),
      createUser(pair.b.publicUrl, pair.b.internalUrl, { name: 'Bob' }),
      createUser(third.publicUrl, third.internalUrl, { name: 'Dave' }),
    ]);
    await connectAcross({ user: alice, backend: pair.a, domain: A }, { user: bob, backend: pair.b, domain: B });
    await connectAcross({ user: alice, backend: pair.a, domain: A }, { user: dave, backend: third, domain: C });
  }, 60_000);
  afterAll(async () => {
    await third?.stop();
    await pair?.stop();
  });

  it('refuses a conversation with users of two backends that do not federate with each other (409)', async () => {
    const refused = await postConversation(pair.a.publicUrl, alice.token, {
      name: 'apart',
      qualified_users: [
        { id: bob.id, domain: B },
        { id: dave.id, domain: C },
      ],
    });
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body).toEqual({ non_federating_backends: [B, C] });
    expect(await conversationNames(pair.a.publicUrl, alice.token)).not.toContain('apart');

    const lonely = await postConversation(pair.a.publicUrl, alice.token, {
      name: 'with bob',
      qualified_users: [{ id: bob.id, domain: B }],
    });
    expect(lonely.status, lonely.text).toBe(201);
    const notAdded = await addMembers(
      pair.a.publicUrl,
      alice.token,
      { domain: A, id: lonely.body.qualified_id.id },
      { qualified_users: [{ id: dave.id, domain: C }] },
    );
    expect(notAdded.status, notAdded.text).toBe(409);
    expect(notAdded.body).toEqual({ non_federating_backends: [B, C] });
    const members = (
      await getConversation(pair.a.publicUrl, alice.token, { domain: A, id: lonely.body.qualified_id.id })
    ).body.members.others;
    expect(members.map((m: any) => m.qualified_id)).toEqual([{ id: bob.id, domain: B }]);
  });

  it('keeps Proteus out of federated conversations a backend owns, but its users join those of others', async () => {
    const refused = await postConversation(pair.b.publicUrl, bob.token, {
      name: 'proteus from b',
      qualified_users: [{ id: alice.id, domain: A }],
    });
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body.label).toBe('federation-disabled-for-protocol');
    expect(await conversationNames(pair.b.publicUrl, bob.token)).not.toContain('proteus from b');

    // A Proteus conversation of example.com: Bob is in it, and reads it from his own backend.
    const owned = await postConversation(pair.a.publicUrl, alice.token, {
      name: 'proteus from a',
      qualified_users: [{ id: bob.id, domain: B }],
    });
    expect(owned.status, owned.text).toBe(201);
    const seen = await getConversation(pair.b.publicUrl, bob.token, { domain: A, id: owned.body.qualified_id.id });
    expect(seen.status, seen.text).toBe(200);
    expect(seen.body.name).toBe('proteus from a');
  });
});
