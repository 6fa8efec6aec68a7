import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A, B, connectAcross, type FederatedPair, startPairWithConnectedUsers } from '../../helpers/federation.js';
import { addClient } from '../../helpers/clients.js';
import { conversationNames } from '../../helpers/conversation-names.js';
import { otrMessage, postOtr } from '../../helpers/otr.js';
import { api, connect, createUser, invitedMember, teamOwner, type TestUser } from '../../helpers/users.js';
import { openSocket, type TestSocket } from '../../helpers/websocket.js';
import { deleteSelf } from '../../helpers/endpoints/brig.js';
import {
  addMembers,
  deleteTeamMember,
  getConversation,
  listConversationIds,
  postConversation,
  postTypingStatus,
  putConversationMessageTimer,
  putConversationName,
  removeMember,
  updateConversationMember,
} from '../../helpers/endpoints/galley.js';
import { getNotifications } from '../../helpers/endpoints/gundeck.js';

const eventOf = (type: string, conv?: string) => (m: any) =>
  m?.payload?.[0]?.type === type && (conv === undefined || m.payload[0].qualified_conversation?.id === conv);

/** A conversation owned by one backend with members on the other: created, listed, changed. */
describe('federation: conversations across two backends', () => {
  let pair: FederatedPair;
  let alice: TestUser;
  let bob: TestUser;
  let bobWs: TestSocket;
  let aliceWs: TestSocket;
  let aliceClient: string;
  let bobClient: string;

  beforeAll(async () => {
    ({ pair, alice, bob } = await startPairWithConnectedUsers());
    [aliceClient, bobClient] = await Promise.all([
      addClient(pair.a.publicUrl, alice),
      addClient(pair.b.publicUrl, bob),
    ]);
    bobWs = await openSocket(pair.b.publicUrl, `/v8/await?access_token=${bob.token}`);
    aliceWs = await openSocket(pair.a.publicUrl, `/v8/await?access_token=${alice.token}`);
  });
  afterAll(async () => {
    await bobWs?.close();
    await aliceWs?.close();
    await pair?.stop();
  });

  const asAlice = () => api(pair.a.publicUrl, alice.token);

  it('creates a Proteus conversation with a remote member, who gets it and sees it listed', async () => {
    const created = await postConversation(pair.a.publicUrl, alice.token, {
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
    const seen = await getConversation(pair.b.publicUrl, bob.token, { domain: A, id: conv.id });
    expect(seen.status, seen.text).toBe(200);
    expect(seen.body).toMatchObject({ qualified_id: conv, name: 'across' });
    const ids = await listConversationIds(pair.b.publicUrl, bob.token, {});
    expect(ids.body.qualified_conversations).toContainEqual(conv);
  });

  it("tells the remote member of the owner's changes", async () => {
    const created = await postConversation(pair.a.publicUrl, alice.token, {
      name: 'before',
      qualified_users: [{ id: bob.id, domain: B }],
    });
    const conv = created.body.qualified_id;
    expect(
      (await putConversationName(pair.a.publicUrl, alice.token, { domain: A, id: conv.id }, { name: 'after' })).status,
    ).toBe(200);
    const renamed = await bobWs.next(eventOf('conversation.rename', conv.id));
    expect(renamed.payload[0]).toMatchObject({ qualified_from: { id: alice.id, domain: A }, data: { name: 'after' } });
    expect((await getConversation(pair.b.publicUrl, bob.token, { domain: A, id: conv.id })).body.name).toBe('after');
  });

  it('refuses remote users one is not connected to', async () => {
    const stranger = await createUser(pair.b.publicUrl, pair.b.internalUrl);
    const r = await postConversation(pair.a.publicUrl, alice.token, {
      qualified_users: [{ id: stranger.id, domain: B }],
    });
    expect(r.status, r.text).toBe(403);
    expect(r.body.label).toBe('not-connected');
  });

  const newConversation = async () => {
    const created = await postConversation(pair.a.publicUrl, alice.token, {
      qualified_users: [{ id: bob.id, domain: B }],
    });
    expect(created.status, created.text).toBe(201);
    return created.body.qualified_id.id as string;
  };
  const otrEvent = (conv: string, text: string) => (m: any) =>
    eventOf('conversation.otr-message-add', conv)(m) &&
    Buffer.from(m.payload[0].data.text, 'base64').toString() === text;

  it('carries Proteus messages both ways, checked against the clients on both backends', async () => {
    const conv = await newConversation();
    const missing = await postOtr(pair.a.publicUrl, alice.token, conv, otrMessage(aliceClient, []));
    expect(missing.status, missing.text).toBe(412);
    expect(missing.body.missing).toEqual({ [B]: { [bob.id]: [bobClient] } });

    const toBob = otrMessage(aliceClient, [{ user: bob.id, client: bobClient, text: 'hello bob', domain: B }]);
    const sent = await postOtr(pair.a.publicUrl, alice.token, conv, toBob);
    expect(sent.status, sent.text).toBe(201);
    expect(sent.body).toMatchObject({ missing: {}, failed_to_confirm_clients: {} });
    const atBob = await bobWs.next(otrEvent(conv, 'hello bob'));
    expect(atBob.payload[0]).toMatchObject({
      qualified_conversation: { id: conv, domain: A },
      qualified_from: { id: alice.id, domain: A },
      data: { sender: aliceClient, recipient: bobClient },
    });

    // Bob's message goes through Alice's backend, which owns the conversation.
    const bobMissing = await postOtr(pair.b.publicUrl, bob.token, conv, otrMessage(bobClient, []));
    expect(bobMissing.status, bobMissing.text).toBe(412);
    expect(bobMissing.body.missing).toEqual({ [A]: { [alice.id]: [aliceClient] } });
    const toAlice = otrMessage(bobClient, [{ user: alice.id, client: aliceClient, text: 'hello alice', domain: A }]);
    const answered = await postOtr(pair.b.publicUrl, bob.token, conv, toAlice);
    expect(answered.status, answered.text).toBe(201);
    const atAlice = await aliceWs.next(otrEvent(conv, 'hello alice'));
    expect(atAlice.payload[0]).toMatchObject({
      qualified_from: { id: bob.id, domain: B },
      data: { sender: bobClient, recipient: aliceClient },
    });
  });

  it('refuses a message to a remote conversation from a non-member', async () => {
    const conv = await newConversation();
    const carol = await createUser(pair.b.publicUrl, pair.b.internalUrl);
    const carolClient = await addClient(pair.b.publicUrl, carol);
    const r = await postOtr(pair.b.publicUrl, carol.token, conv, otrMessage(carolClient, []));
    expect(r.status, r.text).toBe(404);
    expect(r.body.label).toBe('no-conversation');
  });

  it('adds a remote user to a conversation, who then gets it', async () => {
    const created = await postConversation(pair.a.publicUrl, alice.token, { name: 'later' });
    const conv = created.body.qualified_id.id as string;
    const added = await addMembers(
      pair.a.publicUrl,
      alice.token,
      { domain: A, id: conv },
      {
        qualified_users: [{ id: bob.id, domain: B }],
      },
    );
    expect(added.status, added.text).toBe(200);
    expect(added.body).toMatchObject({ type: 'conversation.member-join' });
    const announced = await bobWs.next(eventOf('conversation.create', conv));
    expect(announced.payload[0].data).toMatchObject({ name: 'later', members: { self: { id: bob.id } } });
    expect((await getConversation(pair.b.publicUrl, bob.token, { domain: A, id: conv })).status).toBe(200);
  });

  it("changes the owner's conversation from the remote member's backend, as the owner allows", async () => {
    const carol = await createUser(pair.a.publicUrl, pair.a.internalUrl, { name: 'Carol' });
    await connect(pair.a.publicUrl, alice, carol);
    const created = await postConversation(pair.a.publicUrl, alice.token, {
      qualified_users: [
        { id: bob.id, domain: B },
        { id: carol.id, domain: A },
      ],
    });
    const conv = created.body.qualified_id.id as string;
    await bobWs.next(eventOf('conversation.create', conv));

    const rename = await putConversationName(pair.b.publicUrl, bob.token, { domain: A, id: conv }, { name: 'mine' });
    expect(rename.status, rename.text).toBe(200);
    expect(rename.body).toMatchObject({ type: 'conversation.rename', qualified_from: { id: bob.id, domain: B } });
    const atAlice = await aliceWs.next(eventOf('conversation.rename', conv));
    expect(atAlice.payload[0]).toMatchObject({ qualified_from: { id: bob.id, domain: B }, data: { name: 'mine' } });
    await bobWs.next(eventOf('conversation.rename', conv));
    expect((await getConversation(pair.b.publicUrl, bob.token, { domain: A, id: conv })).body.name).toBe('mine');
    expect(
      (await putConversationName(pair.b.publicUrl, bob.token, { domain: A, id: conv }, { name: 'mine' })).status,
    ).toBe(204);

    const removed = await removeMember(
      pair.b.publicUrl,
      bob.token,
      { domain: A, id: conv },
      { domain: A, id: carol.id },
    );
    expect(removed.status, removed.text).toBe(200);
    const left = await aliceWs.next(eventOf('conversation.member-leave', conv));
    expect(left.payload[0]).toMatchObject({
      qualified_from: { id: bob.id, domain: B },
      data: { qualified_user_ids: [{ id: carol.id, domain: A }], reason: 'removed' },
    });

    const demoted = await updateConversationMember(
      pair.a.publicUrl,
      alice.token,
      { domain: A, id: conv },
      { domain: B, id: bob.id },
      {
        conversation_role: 'wire_member',
      },
    );
    expect(demoted.status, demoted.text).toBe(200);
    await bobWs.next(eventOf('conversation.member-update', conv));
    const refused = await putConversationMessageTimer(
      pair.b.publicUrl,
      bob.token,
      { domain: A, id: conv },
      { message_timer: 1000 },
    );
    expect(refused.status, refused.text).toBe(403);
    expect(refused.body.label).toBe('action-denied');
    // The owner checks too, whatever the calling backend's copy says.
    const asked = (user: string) =>
      fetch(`${pair.a.internalUrl}/federation/galley/update-conversation`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'wire-origin-domain': B, 'x-svc-api-version': 'v1' },
        body: JSON.stringify({
          user,
          conv_id: conv,
          action: { tag: 'ConversationMessageTimerUpdateTag', action: { message_timer: 1000 } },
        }),
      }).then((r) => r.json());
    expect(await asked(bob.id)).toEqual({ tag: 'ConversationUpdateResponseError', contents: 'ActionDenied' });
    expect(await asked(crypto.randomUUID())).toEqual({
      tag: 'ConversationUpdateResponseError',
      contents: 'ConvNotFound',
    });
    expect(
      (await getConversation(pair.a.publicUrl, alice.token, { domain: A, id: conv })).body.message_timer,
    ).toBeNull();
  });

  it('carries typing indicators both ways, pushed and never stored', async () => {
    const conv = await newConversation();
    await bobWs.next(eventOf('conversation.create', conv));
    const typed = await postTypingStatus(pair.b.publicUrl, bob.token, { domain: A, id: conv }, { status: 'started' });
    expect(typed.status, typed.text).toBe(200);
    const atAlice = await aliceWs.next(eventOf('conversation.typing', conv));
    expect(atAlice).toMatchObject({ transient: true });
    expect(atAlice.payload[0]).toMatchObject({
      qualified_from: { id: bob.id, domain: B },
      data: { status: 'started' },
    });
    expect(
      (await postTypingStatus(pair.a.publicUrl, alice.token, { domain: A, id: conv }, { status: 'stopped' })).status,
    ).toBe(200);
    const atBob = await bobWs.next(eventOf('conversation.typing', conv));
    expect(atBob.payload[0]).toMatchObject({
      qualified_from: { id: alice.id, domain: A },
      data: { status: 'stopped' },
    });
    const stored = await getNotifications(pair.b.publicUrl, bob.token, { size: 1000 });
    expect(stored.body.notifications.flatMap((n: any) => n.payload).map((e: any) => e.type)).not.toContain(
      'conversation.typing',
    );
  });

  it('lets a remote member leave through the owner', async () => {
    const conv = await newConversation();
    const left = await removeMember(pair.b.publicUrl, bob.token, { domain: A, id: conv }, { domain: B, id: bob.id });
    expect(left.status, left.text).toBe(200);
    expect(left.body).toMatchObject({ type: 'conversation.member-leave', data: { reason: 'left' } });
    const atAlice = await aliceWs.next(eventOf('conversation.member-leave', conv));
    expect(atAlice.payload[0]).toMatchObject({
      qualified_from: { id: bob.id, domain: B },
      data: { qualified_user_ids: [{ id: bob.id, domain: B }] },
    });
    expect((await getConversation(pair.a.publicUrl, alice.token, { domain: A, id: conv })).body.members.others).toEqual(
      [],
    );
    // The owner's announcement reaches Bob's backend too, which drops its copy: nobody there is left.
    await bobWs.next(eventOf('conversation.member-leave', conv));
    expect(await pair.b.query('SELECT id FROM conversation_copies WHERE id = ?', conv)).toEqual([]);
    expect((await getConversation(pair.b.publicUrl, bob.token, { domain: A, id: conv })).status).toBe(404);

    // Changed while nobody on Bob's backend was in it; added again, Bob gets it as it is now.
    expect(
      (await putConversationName(pair.a.publicUrl, alice.token, { domain: A, id: conv }, { name: 'meanwhile' })).status,
    ).toBe(200);
    const readded = await addMembers(
      pair.a.publicUrl,
      alice.token,
      { domain: A, id: conv },
      {
        qualified_users: [{ id: bob.id, domain: B }],
      },
    );
    expect(readded.status, readded.text).toBe(200);
    const again = await bobWs.next(
      (m) => eventOf('conversation.create', conv)(m) && m.payload[0].data.name === 'meanwhile',
    );
    expect(again.payload[0].data.members.self).toMatchObject({ id: bob.id });
    expect((await getConversation(pair.b.publicUrl, bob.token, { domain: A, id: conv })).body.name).toBe('meanwhile');
  });

  it('takes conversation updates in the v0 payload, and refuses malformed actions', async () => {
    const conv = await newConversation();
    const rpc = (version: string, body: unknown) =>
      fetch(`${pair.b.internalUrl}/federation/galley/on-conversation-updated`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'wire-origin-domain': A, 'x-svc-api-version': version },
        body: JSON.stringify(body),
      });
    const v0 = {
      cuTime: new Date().toISOString(),
      cuOrigUserId: { id: alice.id, domain: A },
      cuConvId: conv,
      cuAlreadyPresentUsers: [bob.id],
      cuAction: { tag: 'ConversationRenameTag', action: { name: 'from v0' } },
    };
    expect((await rpc('v0', v0)).status).toBe(200);
    const renamed = await bobWs.next(eventOf('conversation.rename', conv));
    expect(renamed.payload[0].data).toEqual({ name: 'from v0' });

    const bad = await rpc('v0', { ...v0, cuAction: { tag: 'ConversationRenameTag', action: { name: 7 } } });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { label: string }).label).toBe('bad-request');
    // A v1 payload sent as v0 is not a v0 update.
    const v1 = {
      time: v0.cuTime,
      origUserId: v0.cuOrigUserId,
      convId: conv,
      alreadyPresentUsers: [bob.id],
      action: v0.cuAction,
    };
    expect((await rpc('v0', v1)).status).toBe(400);
    expect((await rpc('v1', v1)).status).toBe(200);
  });

  it("a team member's deletion reaches remote members; a deleted remote user leaves conversations here", async () => {
    const owner = await teamOwner(pair.a.publicUrl, pair.a.internalUrl);
    const member = await invitedMember(pair.a.publicUrl, owner);
    await connectAcross({ user: owner, backend: pair.a, domain: A }, { user: bob, backend: pair.b, domain: B });
    const teamConv = await postConversation(pair.a.publicUrl, owner.token, {
      name: 'team and bob',
      team: { teamid: owner.team, managed: false },
      qualified_users: [
        { id: member.id, domain: A },
        { id: bob.id, domain: B },
      ],
    });
    expect(teamConv.status, teamConv.text).toBe(201);
    const teamConvId = teamConv.body.qualified_id.id;
    await bobWs.next(eventOf('conversation.create', teamConvId));
    const removed = await deleteTeamMember(pair.a.publicUrl, owner.token, owner.team, member.id, {
      password: 'secret-password',
    });
    expect(removed.status, removed.text).toBe(202);
    const left = await bobWs.next(eventOf('conversation.member-leave', teamConvId));
    expect(left.payload[0].data).toMatchObject({
      qualified_user_ids: [{ id: member.id, domain: A }],
      reason: 'user-deleted',
    });

    const bert = await createUser(pair.b.publicUrl, pair.b.internalUrl, { name: 'Bert' });
    await connectAcross({ user: alice, backend: pair.a, domain: A }, { user: bert, backend: pair.b, domain: B });
    const conv = await postConversation(pair.a.publicUrl, alice.token, {
      name: 'with bert',
      qualified_users: [
        { id: bert.id, domain: B },
        { id: bob.id, domain: B },
      ],
    });
    const convId = conv.body.qualified_id.id;
    await bobWs.next(eventOf('conversation.create', convId));
    const deleted = await deleteSelf(pair.b.publicUrl, bert.token, { password: 'secret-password' });
    expect(deleted.status, deleted.text).toBe(200);
    for (const ws of [aliceWs, bobWs]) {
      const gone = await ws.next(eventOf('conversation.member-leave', convId));
      expect(gone.payload[0].data).toMatchObject({
        qualified_user_ids: [{ id: bert.id, domain: B }],
        reason: 'user-deleted',
      });
    }
    const members = (await getConversation(pair.a.publicUrl, alice.token, { domain: A, id: convId })).body.members
      .others;
    expect(members.map((m: any) => m.qualified_id)).toEqual([{ id: bob.id, domain: B }]);
  });

  it('with the remote down: no new conversation (533), messages queued and delivered once it is back', async () => {
    const conv = await newConversation();
    await bobWs.close();
    await pair.down('b');
    const refused = await postConversation(pair.a.publicUrl, alice.token, {
      name: 'never',
      qualified_users: [{ id: bob.id, domain: B }],
    });
    expect(refused.status, refused.text).toBe(533);
    expect(refused.body).toEqual({ unreachable_backends: [B] });
    // Before v3 the same refusal has the standard body, the domains in its data.
    const refusedV2 = await asAlice().post('/v2/conversations', {
      name: 'never',
      qualified_users: [{ id: bob.id, domain: B }],
    });
    expect(refusedV2.status, refusedV2.text).toBe(533);
    expect(refusedV2.body).toMatchObject({
      code: 533,
      label: 'federation-unreachable-domains-error',
      data: { type: 'federation', domains: [B], domain: B },
    });
    expect(await conversationNames(pair.a.publicUrl, alice.token)).not.toContain('never');
    const lonely = (await postConversation(pair.a.publicUrl, alice.token, { name: 'lonely' })).body.qualified_id.id;
    const notAdded = await addMembers(
      pair.a.publicUrl,
      alice.token,
      { domain: A, id: lonely },
      {
        qualified_users: [{ id: bob.id, domain: B }],
      },
    );
    expect(notAdded.status, notAdded.text).toBe(533);
    expect(notAdded.body).toEqual({ unreachable_backends: [B] });
    expect(
      (await getConversation(pair.a.publicUrl, alice.token, { domain: A, id: lonely })).body.members.others,
    ).toEqual([]);

    const toBob = otrMessage(aliceClient, [
      { user: bob.id, client: bobClient, text: 'while you were away', domain: B },
    ]);
    const sent = await postOtr(pair.a.publicUrl, alice.token, conv, toBob);
    expect(sent.status, sent.text).toBe(201);
    expect(sent.body.failed_to_confirm_clients).toEqual({ [B]: { [bob.id]: [bobClient] } });

    const b = await pair.up('b');
    bobWs = await openSocket(b.publicUrl, `/v8/await?access_token=${bob.token}`);
    pair.announce('b');
    await bobWs.next(otrEvent(conv, 'while you were away'));
  });
});
