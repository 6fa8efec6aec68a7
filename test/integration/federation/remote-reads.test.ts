import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { addClient } from '../../helpers/clients.js';
import { otrMessage, postOtr } from '../../helpers/otr.js';
import { openSocket } from '../../helpers/websocket.js';
import {
  A,
  B,
  connectAcross,
  type FederatedPair,
  startPairWithConnectedUsers,
  usersWhoseOne2OneLivesOn,
} from '../../helpers/federation.js';
import { PROTEUS_ONE2ONE_NAMESPACE } from '../../../src/edge/galley/conversations/one2one-id.js';
import { teamOwner, type TestUser } from '../../helpers/users.js';
import { getConnection } from '../../helpers/endpoints/brig.js';
import {
  getConversation,
  listConversations,
  postConversation,
  putConversationAccess,
} from '../../helpers/endpoints/galley.js';
import { getNotifications } from '../../helpers/endpoints/gundeck.js';

/** Conversations another backend owns: read from the owner (get-conversations), and the 1:1 of a connection. */
describe('federation: conversations other backends own', () => {
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
    const created = await postConversation(pair.a.publicUrl, alice.token, {
      name: 'owned by example.com',
      qualified_users: [{ id: bob.id, domain: B }],
      conversation_role: 'wire_member',
    });
    expect(created.status, created.text).toBe(201);
    const shared = created.body.qualified_id;
    const alone = await postConversation(pair.a.publicUrl, alice.token, {
      name: 'alone',
      qualified_users: [],
    });
    const notBobs = alone.body.qualified_id;
    const elsewhere = { id: crypto.randomUUID(), domain: 'unknown.example.org' };

    const listed = await listConversations(pair.b.publicUrl, bob.token, {
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
    const created = await postConversation(pair.a.publicUrl, alice.token, {
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

  it("a remote member's access change removes the members the new access roles no longer admit", async () => {
    const owner = await teamOwner(pair.a.publicUrl, pair.a.internalUrl);
    await connectAcross({ user: owner, backend: pair.a, domain: A }, { user: bob, backend: pair.b, domain: B });
    const created = await postConversation(pair.a.publicUrl, owner.token, {
      name: 'team, with bob',
      team: { teamid: owner.team, managed: false },
      qualified_users: [{ id: bob.id, domain: B }],
    });
    expect(created.status, created.text).toBe(201);
    const conv = created.body.qualified_id;
    const changed = await putConversationAccess(
      pair.b.publicUrl,
      bob.token,
      { domain: A, id: conv.id },
      {
        access: ['invite'],
        access_role: ['team_member', 'guest'],
      },
    );
    expect(changed.status, changed.text).toBe(200);
    // Bob is not of the team: the change he made removes him, as it would remove any non-team member.
    const after = await getConversation(pair.a.publicUrl, owner.token, { domain: A, id: conv.id });
    expect(after.body).toMatchObject({ access_role: ['team_member', 'guest'], members: { others: [] } });
    const events = (await getNotifications(pair.a.publicUrl, owner.token, { size: 100 })).body.notifications
      .flatMap((n: any) => n.payload)
      .filter((e: any) => e.type === 'conversation.member-leave' && e.qualified_conversation?.id === conv.id);
    expect(events).toEqual([
      expect.objectContaining({
        qualified_from: { id: bob.id, domain: B },
        data: expect.objectContaining({ qualified_user_ids: [{ id: bob.id, domain: B }], reason: 'removed' }),
      }),
    ]);
  });

  async function proteusOne2One(owner: string) {
    const { onA: carol, onB: dave } = await usersWhoseOne2OneLivesOn(pair, PROTEUS_ONE2ONE_NAMESPACE, owner);
    const mine = await getConnection(pair.a.publicUrl, carol.token, { domain: B, id: dave.id });
    const theirs = await getConnection(pair.b.publicUrl, dave.token, { domain: A, id: carol.id });
    expect([mine.body.status, theirs.body.status]).toEqual(['accepted', 'accepted']);
    const conv = mine.body.qualified_conversation;
    expect(conv).toMatchObject({ domain: owner });
    expect(theirs.body.qualified_conversation).toEqual(conv);
    for (const [base, token, other] of [
      [pair.a.publicUrl, carol.token, { id: dave.id, domain: B }],
      [pair.b.publicUrl, dave.token, { id: carol.id, domain: A }],
    ] as const) {
      const seen = await getConversation(base, token, conv);
      expect(seen.status, seen.text).toBe(200);
      expect(seen.body).toMatchObject({ type: 2, members: { others: [{ qualified_id: other }] } });
    }

    const [carolClient, daveClient] = await Promise.all([
      addClient(pair.a.publicUrl, carol),
      addClient(pair.b.publicUrl, dave),
    ]);
    const daveWs = await openSocket(pair.b.publicUrl, `/v8/await?access_token=${dave.token}&client=${daveClient}`);
    onTestFinished(() => daveWs.close());
    const hello = otrMessage(carolClient, [{ user: dave.id, client: daveClient, text: 'hello in our 1:1', domain: B }]);
    const sent = await postOtr(pair.a.publicUrl, carol.token, conv.id, hello, conv.domain);
    expect(sent.status, sent.text).toBe(201);
    const got = await daveWs.next(
      (m: any) =>
        m?.payload?.[0]?.type === 'conversation.otr-message-add' && m.payload[0].qualified_conversation?.id === conv.id,
      20_000,
    );
    expect(Buffer.from(got.payload[0].data.text, 'base64').toString()).toBe('hello in our 1:1');
  }

  it('gives a connection its Proteus 1:1 owned by example.com, seen and used from both backends', () =>
    proteusOne2One(A));

  it('gives a connection its Proteus 1:1 owned by b.example.com, seen and used from both backends', () =>
    proteusOne2One(B));
});
