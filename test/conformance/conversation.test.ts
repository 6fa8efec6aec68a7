// Scenarios of wire-server's integration/test/Test/Conversation.hs that one backend can play.
import { describe, expect, it } from 'vitest';
import { wireError } from '../helpers/http.js';
import { connect, createUser } from '../helpers/users.js';
import { atHost } from './lib/host.js';
import { as, cid, connectedUsers, guestUser, internal, newConv, pub, qOf, team } from './lib/env.js';
import {
  addMembers,
  getConversation,
  getConversationCode,
  getJoinCodeConv,
  postConversation,
  postConversationCode,
  putConversationReceiptMode,
} from '../helpers/endpoints/galley.js';

describe('Conversation', () => {
  it('Conversation.testAddMember', async () => {
    const alice = await createUser(pub, internal);
    const conv = await newConv(alice);
    const bob = await createUser(pub, internal);
    const add = () =>
      addMembers(
        pub,
        alice.token,
        { domain: 'example.com', id: cid(conv) },
        {
          qualified_users: [qOf(bob)],
          conversation_role: 'wire_member',
        },
      );
    expect(await add()).toMatchObject({ status: 403, body: { label: 'not-connected' } });
    await connect(pub, alice, bob);
    const r = await add();
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({
      type: 'conversation.member-join',
      qualified_from: qOf(alice),
      qualified_conversation: conv.qualified_id,
    });
    expect(r.body.data.users.map((u: any) => u.qualified_id)).toEqual([qOf(bob)]);

    const mine = await getConversation(pub, alice.token, { domain: 'example.com', id: cid(conv) });
    expect(mine.status).toBe(200);
    expect(mine.body.members.others).toEqual([
      expect.objectContaining({ qualified_id: qOf(bob), conversation_role: 'wire_member' }),
    ]);
    const theirs = await getConversation(pub, bob.token, { domain: 'example.com', id: cid(conv) });
    expect(theirs.status).toBe(200);
    expect(theirs.body.members.others).toEqual([
      expect.objectContaining({ qualified_id: qOf(alice), conversation_role: 'wire_admin' }),
    ]);
  });

  it('Conversation.testAddMemberV1', async () => {
    const [alice, bob] = await connectedUsers(2);
    const conv = await newConv(alice!);
    const r = await as(alice!).post(`/v1/conversations/${cid(conv)}/members/v2`, {
      qualified_users: [qOf(bob!)],
      conversation_role: 'wire_member',
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({
      type: 'conversation.member-join',
      qualified_from: qOf(alice!),
      qualified_conversation: conv.qualified_id,
    });
    expect(r.body.data.users.map((u: any) => u.qualified_id)).toEqual([qOf(bob!)]);
  });

  for (const proto of ['proteus', 'mls'] as const) {
    it(`Conversation.testNewConversationReceiptMode[${proto}]`, async () => {
      const alice = await createUser(pub, internal);
      const conv = await newConv(alice, { protocol: proto, receipt_mode: 11 });
      expect(conv.receipt_mode).toBe(proto === 'proteus' ? 11 : 0);
    });

    it(`Conversation.testConversationReceiptModeUpdate[${proto}]`, async () => {
      const alice = await createUser(pub, internal);
      const conv = await newConv(alice, { protocol: proto, receipt_mode: 11 });
      const r = await putConversationReceiptMode(
        pub,
        alice.token,
        { domain: 'example.com', id: cid(conv) },
        { receipt_mode: 12 },
      );
      if (proto === 'proteus') {
        expect(r.status, r.text).toBe(200);
        expect(r.body.data.receipt_mode).toBe(12);
      } else {
        expect(r).toMatchObject({ status: 403, body: { label: 'mls-receipts-not-allowed' } });
      }
      const after = await getConversation(pub, alice.token, { domain: 'example.com', id: cid(conv) });
      expect(after.status).toBe(200);
      expect(after.body.receipt_mode).toBe(proto === 'proteus' ? 12 : 0);
    });
  }

  it('Conversation.testGuestCreatesConversation', async () => {
    const guest = await guestUser();
    const r = await postConversation(pub, guest.token, { qualified_users: [] });
    expect(r).toMatchObject({ status: 403, body: wireError(403, 'operation-denied') });
  });

  it('Conversation.testGuestLinksSuccess', async () => {
    const { owner, members } = await team(1);
    const conv = await newConv(owner, { access: ['code'], access_role: ['team_member', 'guest'] });
    const created = await postConversationCode(pub, owner.token, cid(conv), {});
    expect(created.status, created.text).toBe(201);
    const { key, code } = created.body.data;
    const r = await getJoinCodeConv(pub, members[0]!.token, { key, code });
    expect(r.status, r.text).toBe(200);
    expect(r.body.id).toBe(cid(conv));
  });

  it('Conversation.testMultiIngressGuestLinks (configured URI part)', async () => {
    const { owner } = await team();
    const conv = await newConv(owner, { access: ['code'], access_role: ['team_member', 'guest'] });
    const uri = 'http://127.0.0.1:8080/conversation-join/';
    const created = await postConversationCode(pub, owner.token, cid(conv), {});
    expect(created.status, created.text).toBe(201);
    expect(created.body.type).toBe('conversation.code-update');
    expect(created.body.data.uri.startsWith(uri)).toBe(true);
    const got = await getConversationCode(pub, owner.token, cid(conv));
    expect(got.status).toBe(200);
    expect(got.body.uri.startsWith(uri)).toBe(true);
    const red = await atHost(pub, 'GET', `/v8/conversations/${cid(conv)}/code`, owner.token, 'red.example.com');
    expect(red.status).toBe(200);
    expect(red.body.uri.startsWith(uri)).toBe(true);
  });
});
