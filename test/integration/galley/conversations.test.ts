import { describe, expect, it } from 'vitest';
import { sharedBackend } from '../../helpers/backend.js';
import { wireError } from '../../helpers/http.js';
import { api, connect, createUser } from '../../helpers/users.js';
import { openSocket } from '../../helpers/websocket.js';
import {
  getConversation,
  getSelfConversation,
  listConversationIds,
  listConversations,
  postConversation,
  postOne2OneConversation,
  postSelfConversation,
} from '../../helpers/endpoints/galley.js';

const { publicUrl, internalUrl } = sharedBackend();
const q = (id: string) => ({ id, domain: 'example.com' });

describe('creating and reading conversations', () => {
  it('creates a group with connected users; every member gets conversation.create with their own view', async () => {
    const a = await createUser(publicUrl, internalUrl, { name: 'A' });
    const b = await createUser(publicUrl, internalUrl, { name: 'B' });
    await connect(publicUrl, a, b);
    const socket = await openSocket(publicUrl, `/v8/await?access_token=${b.token}`);
    const r = await postConversation(publicUrl, a.token, {
      name: 'Team chat',
      qualified_users: [q(b.id)],
      conversation_role: 'wire_member',
    });
    expect(r.status).toBe(201);
    const id = r.body.qualified_id.id;
    expect(r.headers.get('location')).toBe(id);
    expect(r.body).toMatchObject({
      qualified_id: { id, domain: 'example.com' },
      id,
      type: 0,
      creator: a.id,
      name: 'Team chat',
      access: ['invite'],
      access_role: ['team_member', 'non_team_member', 'service'],
      protocol: 'proteus',
      cells_state: 'disabled',
      last_event: '0.0',
      last_event_time: '1970-01-01T00:00:00.000Z',
      failed_to_add: [],
      members: {
        self: {
          qualified_id: q(a.id),
          id: a.id,
          conversation_role: 'wire_admin',
          otr_muted_status: null,
          otr_archived: false,
          hidden: false,
          status: 0,
        },
        others: [{ qualified_id: q(b.id), id: b.id, conversation_role: 'wire_member', status: 0 }],
      },
    });
    expect(r.body.group_id).toBeUndefined();
    expect(r.body.cipher_suite).toBeUndefined();

    const created = await socket.next((m) => m.payload[0].type === 'conversation.create');
    const event = created.payload[0];
    expect(event).toMatchObject({
      conversation: id,
      qualified_conversation: { id, domain: 'example.com' },
      from: a.id,
      qualified_from: q(a.id),
      time: expect.stringMatching(/\.\d{3}Z$/),
    });
    // Events carry the v2 shape: legacy access_role plus access_role_v2, and B's own view.
    expect(event.data).toMatchObject({
      id,
      access_role: 'activated',
      access_role_v2: ['team_member', 'non_team_member', 'service'],
    });
    expect(event.data.members.self.id).toBe(b.id);
    await socket.close();

    const bView = await getConversation(publicUrl, b.token, { domain: 'example.com', id: id });
    expect(bView.body.members.self).toMatchObject({ id: b.id, conversation_role: 'wire_member' });
    const v2 = await api(publicUrl, b.token).get(`/v2/conversations/example.com/${id}`);
    expect(v2.body).toMatchObject({
      access_role: 'activated',
      access_role_v2: ['team_member', 'non_team_member', 'service'],
    });
  });

  it('refuses unconnected users, MLS with members, oversize lists and non-members reading', async () => {
    const a = await createUser(publicUrl, internalUrl);
    const stranger = await createUser(publicUrl, internalUrl);
    expect(await postConversation(publicUrl, a.token, { qualified_users: [q(stranger.id)] })).toMatchObject({
      status: 403,
      body: wireError(403, 'not-connected'),
    });
    expect(
      await postConversation(publicUrl, a.token, { protocol: 'mls', qualified_users: [q(stranger.id)] }),
    ).toMatchObject({
      status: 400,
      body: wireError(400, 'non-empty-member-list'),
    });
    expect(await postConversation(publicUrl, a.token, { protocol: 'mixed' })).toMatchObject({
      status: 400,
      body: wireError(400, 'bad-request'),
    });
    expect(await postConversation(publicUrl, a.token, { name: '' })).toMatchObject({ status: 400 });
    expect(await postConversation(publicUrl, a.token, { access_role: 'activated' })).toMatchObject({ status: 400 });
    expect(await postConversation(publicUrl, a.token, { qualified_users: [q('not-a-uuid')] })).toMatchObject({
      status: 400,
    });
    const many = Array.from({ length: 500 }, () => q(crypto.randomUUID()));
    expect(await postConversation(publicUrl, a.token, { qualified_users: many })).toMatchObject({
      status: 400,
      body: wireError(400, 'client-error'),
    });

    const mine = (await postConversation(publicUrl, a.token, { name: 'Mine' })).body.qualified_id.id;
    expect(await getConversation(publicUrl, stranger.token, { domain: 'example.com', id: mine })).toMatchObject({
      status: 403,
      body: wireError(403, 'access-denied'),
    });
    expect(await getConversation(publicUrl, a.token, { domain: 'example.com', id: crypto.randomUUID() })).toMatchObject(
      {
        status: 404,
        body: wireError(404, 'no-conversation'),
      },
    );
  });

  it('makes the self conversation with the account, under the user id, as wire-server does', async () => {
    const a = await createUser(publicUrl, internalUrl);
    const self = { qualified_id: q(a.id), type: 1, access: ['private'], access_role: [] };
    const read = await getConversation(publicUrl, a.token, { domain: 'example.com', id: a.id });
    expect(read.status, read.text).toBe(200);
    expect(read.body).toMatchObject(self);
    const ids = await listConversationIds(publicUrl, a.token, {});
    expect(ids.body.qualified_conversations).toContainEqual(q(a.id));
    const again = await postSelfConversation(publicUrl, a.token);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject(self);
  });

  it('lists the MLS self conversation from v3, made by the listing (MLS is on), and hides it from v2 clients', async () => {
    const a = await createUser(publicUrl, internalUrl);
    const me = api(publicUrl, a.token);
    const v3 = await me.post('/v3/conversations/list-ids', {});
    expect(v3.status, v3.text).toBe(200);
    expect(v3.body.qualified_conversations).toHaveLength(2);
    const mlsSelf = v3.body.qualified_conversations.find((c: { id: string }) => c.id !== a.id);
    const read = await getSelfConversation(publicUrl, a.token);
    expect(read.body).toMatchObject({ qualified_id: mlsSelf, type: 1, protocol: 'mls', epoch: 0 });
    const v2 = await me.post('/v2/conversations/list-ids', {});
    expect(v2.body.qualified_conversations).toEqual([q(a.id)]);
  });

  it('lists conversation ids in pages and fetches them', async () => {
    const a = await createUser(publicUrl, internalUrl);
    const me = api(publicUrl, a.token);
    const ids = [];
    for (let i = 0; i < 3; i++)
      ids.push((await postConversation(publicUrl, a.token, { name: `c${i}` })).body.qualified_id);
    // Five in all, with the two self conversations.
    const first = await listConversationIds(publicUrl, a.token, { size: 3 });
    expect(first.body).toMatchObject({ has_more: true, paging_state: expect.any(String) });
    const second = await listConversationIds(publicUrl, a.token, { size: 3, paging_state: first.body.paging_state });
    expect(second.body.has_more).toBe(false);
    const listed = [...first.body.qualified_conversations, ...second.body.qualified_conversations];
    const own = (await getSelfConversation(publicUrl, a.token)).body.qualified_id.id;
    expect(listed.map((x: any) => x.id).sort()).toEqual([a.id, own, ...ids.map((x) => x.id)].sort());

    const unknown = q(crypto.randomUUID());
    const fetched = await listConversations(publicUrl, a.token, { qualified_ids: [...ids, unknown] });
    expect(fetched.body.found.map((x: any) => x.name).sort()).toEqual(['c0', 'c1', 'c2']);
    expect(fetched.body.not_found).toEqual([unknown]);
    expect(fetched.body.failed).toEqual([]);

    const roles = await me.get(`/v8/conversations/${ids[0].id}/roles`);
    expect(roles.body.conversation_roles).toEqual([
      {
        conversation_role: 'wire_admin',
        actions: expect.arrayContaining(['add_conversation_member', 'modify_add_permission']),
      },
      { conversation_role: 'wire_member', actions: ['leave_conversation'] },
    ]);
  });
});

describe('1:1 conversations', () => {
  it('POST /one2one-conversations finds the 1:1 of connected users (same id from both sides)', async () => {
    const a = await createUser(publicUrl, internalUrl);
    const b = await createUser(publicUrl, internalUrl);
    const stranger = await createUser(publicUrl, internalUrl);
    await connect(publicUrl, a, b);
    const fromA = await postOne2OneConversation(publicUrl, a.token, { qualified_users: [q(b.id)] });
    expect(fromA.status).toBe(200); // the connection already made it
    expect(fromA.body).toMatchObject({ type: 2, members: { self: { id: a.id }, others: [{ id: b.id }] } });
    const fromB = await api(publicUrl, b.token).post('/v6/conversations/one2one', { qualified_users: [q(a.id)] });
    expect(fromB.body.qualified_id).toEqual(fromA.body.qualified_id);
    expect(await postOne2OneConversation(publicUrl, a.token, { qualified_users: [q(stranger.id)] })).toMatchObject({
      status: 403,
      body: wireError(403, 'not-connected'),
    });
    expect(await postOne2OneConversation(publicUrl, a.token, { qualified_users: [q(a.id)] })).toMatchObject({
      status: 403,
      body: wireError(403, 'invalid-op'),
    });
    expect(await postOne2OneConversation(publicUrl, a.token, { qualified_users: [] })).toMatchObject({
      status: 400,
    });
    // Members of a 1:1 cannot be added to it.
    const path = `/v8/conversations/example.com/${fromA.body.qualified_id.id}`;
    expect(await api(publicUrl, a.token).post(`${path}/members`, { qualified_users: [q(stranger.id)] })).toMatchObject({
      status: 403,
      body: wireError(403, 'invalid-op'),
    });
  });
});
