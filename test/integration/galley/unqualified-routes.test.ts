import { describe, expect, it } from 'vitest';
import { sharedBackend } from '../../helpers/backend.js';
import type { Reply } from '../../helpers/http.js';
import { api, connect, createUser, type TestUser } from '../../helpers/users.js';
import { openSocket } from '../../helpers/websocket.js';

const { publicUrl, internalUrl } = sharedBackend();
const q = (id: string) => ({ id, domain: 'example.com' });

/** A group of an owner and `n` connected members (wire_member), known by its bare id. */
async function group(n: number): Promise<{ owner: TestUser; others: TestUser[]; id: string }> {
  const owner = await createUser(publicUrl, internalUrl, { name: 'Owner' });
  const others: TestUser[] = [];
  for (let i = 0; i < n; i++) {
    const u = await createUser(publicUrl, internalUrl, { name: `Member ${i}` });
    await connect(publicUrl, owner, u);
    others.push(u);
  }
  const r = await api(publicUrl, owner.token).post('/v8/conversations', {
    name: 'Group',
    qualified_users: others.map((o) => q(o.id)),
    conversation_role: 'wire_member',
  });
  expect(r.status).toBe(201);
  return { owner, others, id: r.body.qualified_id.id };
}

const conversation = async (u: TestUser, id: string) =>
  (await api(publicUrl, u.token).get(`/v8/conversations/example.com/${id}`)).body;

/** Not served at that version: no route (404), only other methods on the path (405), or a newer route's parameters (400). */
const notServed = (r: Reply) => expect([400, 404, 405], `${r.status} ${r.text}`).toContain(r.status);

describe("older versions' unqualified conversation routes (a local conversation by its bare id)", () => {
  it('renames through /conversations/{cnv}/name and /conversations/{cnv} until v8', async () => {
    const { owner, id } = await group(0);
    const owner_ = api(publicUrl, owner.token);
    const renamed = await owner_.put(`/v7/conversations/${id}/name`, { name: 'Renamed' });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body).toMatchObject({ type: 'conversation.rename', conversation: id, data: { name: 'Renamed' } });
    const again = await owner_.put(`/v0/conversations/${id}`, { name: 'Again' });
    expect(again.status, again.text).toBe(200);
    expect((await conversation(owner, id)).name).toBe('Again');
    notServed(await owner_.put(`/v8/conversations/${id}/name`, { name: 'No' }));
    notServed(await owner_.put(`/v8/conversations/${id}`, { name: 'No' }));
  });

  it('sets the message timer and the receipt mode until v8', async () => {
    const { owner, id } = await group(1);
    const owner_ = api(publicUrl, owner.token);
    const timer = await owner_.put(`/v7/conversations/${id}/message-timer`, { message_timer: 60_000 });
    expect(timer.status, timer.text).toBe(200);
    expect(timer.body).toMatchObject({ type: 'conversation.message-timer-update', data: { message_timer: 60_000 } });
    const receipts = await owner_.put(`/v7/conversations/${id}/receipt-mode`, { receipt_mode: 1 });
    expect(receipts.status, receipts.text).toBe(200);
    expect(receipts.body).toMatchObject({ type: 'conversation.receipt-mode-update', data: { receipt_mode: 1 } });
    expect((await owner_.put(`/v7/conversations/${id}/receipt-mode`, { receipt_mode: 1 })).status).toBe(204);
    expect(await conversation(owner, id)).toMatchObject({ message_timer: 60_000, receipt_mode: 1 });
    notServed(await owner_.put(`/v8/conversations/${id}/message-timer`, { message_timer: null }));
    notServed(await owner_.put(`/v8/conversations/${id}/receipt-mode`, { receipt_mode: 0 }));
  });

  it('reads and updates the own membership until v8; null where the caller is no member', async () => {
    const { owner, id } = await group(0);
    const owner_ = api(publicUrl, owner.token);
    expect((await owner_.put(`/v7/conversations/${id}/self`, { otr_archived: true })).status).toBe(200);
    const me = await owner_.get(`/v7/conversations/${id}/self`);
    expect(me.status, me.text).toBe(200);
    expect(me.body).toMatchObject({ id: owner.id, qualified_id: q(owner.id), otr_archived: true });
    const stranger = await createUser(publicUrl, internalUrl);
    const notMine = await api(publicUrl, stranger.token).get(`/v7/conversations/${id}/self`);
    expect([notMine.status, notMine.body]).toEqual([200, null]);
    notServed(await owner_.get(`/v8/conversations/${id}/self`));
    notServed(await owner_.put(`/v8/conversations/${id}/self`, { hidden: true }));
  });

  it("changes another member's role until v7 and removes a member until v2", async () => {
    const { owner, others, id } = await group(1);
    const member = others[0]!;
    const owner_ = api(publicUrl, owner.token);
    const role = await owner_.put(`/v6/conversations/${id}/members/${member.id}`, { conversation_role: 'wire_admin' });
    expect(role.status, role.text).toBe(200);
    const listed = (await conversation(owner, id)).members.others;
    expect(listed).toEqual([expect.objectContaining({ id: member.id, conversation_role: 'wire_admin' })]);
    notServed(await owner_.put(`/v7/conversations/${id}/members/${member.id}`, { conversation_role: 'x' }));
    notServed(await owner_.del(`/v2/conversations/${id}/members/${member.id}`));
    const removed = await owner_.del(`/v1/conversations/${id}/members/${member.id}`);
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body).toMatchObject({
      type: 'conversation.member-leave',
      data: { qualified_user_ids: [q(member.id)], user_ids: [member.id] },
    });
    expect((await conversation(owner, id)).members.others).toEqual([]);
  });

  it('adds members by bare ids (/members) and qualified ones (/members/v2) until v2', async () => {
    const { owner, id } = await group(0);
    const [a, b] = [await createUser(publicUrl, internalUrl), await createUser(publicUrl, internalUrl)];
    await connect(publicUrl, owner, a);
    await connect(publicUrl, owner, b);
    const owner_ = api(publicUrl, owner.token);
    const byId = await owner_.post(`/v1/conversations/${id}/members`, {
      users: [a.id],
      conversation_role: 'wire_member',
    });
    expect(byId.status, byId.text).toBe(200);
    expect(byId.body).toMatchObject({
      type: 'conversation.member-join',
      data: { users: [{ qualified_id: q(a.id), conversation_role: 'wire_member' }] },
    });
    const qualified = await owner_.post(`/v0/conversations/${id}/members/v2`, { qualified_users: [q(b.id)] });
    expect(qualified.status, qualified.text).toBe(200);
    expect((await owner_.post(`/v0/conversations/${id}/members/v2`, { qualified_users: [q(b.id)] })).status).toBe(204);
    const ids = (await conversation(owner, id)).members.others.map((m: { id: string }) => m.id);
    expect(ids.sort()).toEqual([a.id, b.id].sort());
    notServed(await owner_.post(`/v2/conversations/${id}/members`, { users: [a.id] }));
    notServed(await owner_.post(`/v2/conversations/${id}/members/v2`, { qualified_users: [q(a.id)] }));
  });

  it('sends typing notifications until v3', async () => {
    const { owner, others, id } = await group(1);
    const theirs = await openSocket(publicUrl, `/v2/await?access_token=${others[0]!.token}`);
    const owner_ = api(publicUrl, owner.token);
    const r = await owner_.post(`/v2/conversations/${id}/typing`, { status: 'started' });
    expect(r.status, r.text).toBe(200);
    const typed = await theirs.next((m) => m.payload[0].type === 'conversation.typing');
    expect(typed.payload[0]).toMatchObject({ conversation: id, from: owner.id, data: { status: 'started' } });
    await theirs.close();
    notServed(await owner_.post(`/v3/conversations/${id}/typing`, { status: 'stopped' }));
  });

  it('reads conversations by bare id, pages of local ids and of conversations until v3', async () => {
    const owner = await createUser(publicUrl, internalUrl);
    const owner_ = api(publicUrl, owner.token);
    const made: string[] = [];
    for (const name of ['One', 'Two', 'Three']) {
      const r = await owner_.post('/v8/conversations', { name, qualified_users: [] });
      expect(r.status).toBe(201);
      made.push(r.body.qualified_id.id);
    }
    const [first] = made as [string];
    const one = await owner_.get(`/v2/conversations/${first}`);
    expect(one.status, one.text).toBe(200);
    // the v2 shape: access roles both ways
    expect(one.body).toMatchObject({ id: first, name: 'One', access_role_v2: expect.any(Array) });
    notServed(await owner_.get(`/v3/conversations/${first}`));

    const ids: string[] = [];
    let start: string | undefined;
    for (;;) {
      const page = await owner_.get(`/v2/conversations/ids?size=2${start === undefined ? '' : `&start=${start}`}`);
      expect(page.status, page.text).toBe(200);
      ids.push(...page.body.conversations);
      if (!page.body.has_more) break;
      start = page.body.conversations.at(-1);
    }
    expect(ids).toEqual(expect.arrayContaining(made));
    notServed(await owner_.get('/v3/conversations/ids'));

    const named = await owner_.get(`/v2/conversations?ids=${made.join(',')}`);
    expect(named.status, named.text).toBe(200);
    expect(named.body.conversations.map((x: { id: string }) => x.id).sort()).toEqual([...made].sort());
    expect(named.body.has_more).toBe(false);
    const paged = await owner_.get('/v0/conversations?size=1');
    expect([paged.body.conversations.length, paged.body.has_more]).toEqual([1, true]);
    notServed(await owner_.get('/v3/conversations'));

    const listed = await owner_.post('/v1/conversations/list/v2', { qualified_ids: made.map(q) });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.found.map((x: { id: string }) => x.id).sort()).toEqual([...made].sort());
    notServed(await owner_.post('/v2/conversations/list/v2', { qualified_ids: made.map(q) }));
  });

  it("changes access and access roles in v2's shape (legacy access_role or access_role_v2) until v3", async () => {
    const { owner, id } = await group(0);
    const owner_ = api(publicUrl, owner.token);
    const legacy = await owner_.put(`/v2/conversations/${id}/access`, {
      access: ['invite', 'code'],
      access_role: 'non_activated',
    });
    expect(legacy.status, legacy.text).toBe(200);
    expect(legacy.body).toMatchObject({
      type: 'conversation.access-update',
      data: { access: ['invite', 'code'], access_role: 'non_activated' },
    });
    expect(legacy.body.data.access_role_v2.sort()).toEqual(['guest', 'non_team_member', 'service', 'team_member']);
    const v2 = await owner_.put(`/v1/conversations/example.com/${id}/access`, {
      access: ['invite'],
      access_role_v2: ['team_member', 'non_team_member'],
    });
    expect(v2.status, v2.text).toBe(200);
    const now = await conversation(owner, id);
    expect([now.access, [...now.access_role].sort()]).toEqual([['invite'], ['non_team_member', 'team_member']]);
    expect((await owner_.put(`/v2/conversations/${id}/access`, { access: ['invite'] })).status).toBe(400);
    notServed(await owner_.put(`/v3/conversations/${id}/access`, { access: ['invite'], access_role: 'activated' }));
    // from v3 the qualified route takes only a list of roles
    expect(
      (await owner_.put(`/v3/conversations/example.com/${id}/access`, { access: ['invite'], access_role: 'activated' }))
        .status,
    ).toBe(400);
  });

  it('joins a conversation open by link, by its bare id, until v5', async () => {
    const { owner, id } = await group(0);
    const joiner = await createUser(publicUrl, internalUrl);
    const joiner_ = api(publicUrl, joiner.token);
    // invite-only: refused
    expect((await joiner_.post(`/v4/conversations/${id}/join`)).body).toMatchObject({ label: 'access-denied' });
    const open = await api(publicUrl, owner.token).put(`/v8/conversations/example.com/${id}/access`, {
      access: ['invite', 'link'],
      access_role: ['team_member', 'non_team_member', 'service'],
    });
    expect(open.status, open.text).toBe(200);
    const joined = await joiner_.post(`/v4/conversations/${id}/join`);
    expect(joined.status, joined.text).toBe(200);
    expect(joined.body).toMatchObject({ type: 'conversation.member-join', from: joiner.id });
    expect((await joiner_.post(`/v4/conversations/${id}/join`)).status).toBe(204);
    expect((await conversation(owner, id)).members.others).toEqual([expect.objectContaining({ id: joiner.id })]);
    notServed(await joiner_.post(`/v5/conversations/${id}/join`));
  });

  it('reads a conversation at the legal hold alias until v2', async () => {
    const { owner, id } = await group(0);
    const r = await api(publicUrl, owner.token).get(`/v1/legalhold/conversations/${id}`);
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ id, name: 'Group' });
    notServed(await api(publicUrl, owner.token).get(`/v2/legalhold/conversations/${id}`));
  });
});
