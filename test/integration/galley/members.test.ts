import { describe, expect, it } from 'vitest';
import { sharedBackend } from '../../helpers/backend.js';
import { wireError } from '../../helpers/http.js';
import { api, connect, createUser, login, type TestUser } from '../../helpers/users.js';
import { openSocket } from '../../helpers/websocket.js';
import { postConversation } from '../../helpers/endpoints/galley.js';
import { getNotifications } from '../../helpers/endpoints/gundeck.js';

const { publicUrl, internalUrl } = sharedBackend();
const q = (id: string) => ({ id, domain: 'example.com' });

/** A creator connected to n others, and a group of them all (others as wire_member). */
async function group(n: number): Promise<{ owner: TestUser; others: TestUser[]; path: string; id: string }> {
  const owner = await createUser(publicUrl, internalUrl, { name: 'Owner' });
  const others: TestUser[] = [];
  for (let i = 0; i < n; i++) {
    const u = await createUser(publicUrl, internalUrl, { name: `Member ${i}` });
    await connect(publicUrl, owner, u);
    others.push(u);
  }
  const r = await postConversation(publicUrl, owner.token, {
    name: 'Group',
    qualified_users: others.map((o) => q(o.id)),
    conversation_role: 'wire_member',
  });
  expect(r.status).toBe(201);
  return { owner, others, id: r.body.qualified_id.id, path: `/v8/conversations/example.com/${r.body.qualified_id.id}` };
}

const eventsOf = async (u: TestUser, type: string) =>
  (await getNotifications(publicUrl, u.token)).body.notifications
    .map((n: any) => n.payload[0])
    .filter((e: any) => e.type === type);

describe('conversation members', () => {
  it('adds members with member-join to old and new members; 204 when nothing changes', async () => {
    const { owner, others, path, id } = await group(1);
    const newcomer = await createUser(publicUrl, internalUrl);
    await connect(publicUrl, owner, newcomer);
    const socket = await openSocket(publicUrl, `/v8/await?access_token=${others[0]!.token}`);
    const r = await api(publicUrl, owner.token).post(`${path}/members`, { qualified_users: [q(newcomer.id)] });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      type: 'conversation.member-join',
      conversation: id,
      from: owner.id,
      data: {
        users: [{ qualified_id: q(newcomer.id), id: newcomer.id, conversation_role: 'wire_admin' }],
        user_ids: [newcomer.id],
        add_type: 'internal_add',
      },
    });
    expect(
      (await socket.next((m) => m.payload[0].type === 'conversation.member-join')).payload[0].data.user_ids,
    ).toEqual([newcomer.id]);
    expect(
      (await eventsOf(newcomer, 'conversation.member-join')).filter((e: any) => e.conversation === id),
    ).toHaveLength(1);
    expect(
      (await api(publicUrl, owner.token).post(`${path}/members`, { qualified_users: [q(newcomer.id)] })).status,
    ).toBe(204);
    await socket.close();
  });

  it('denies actions the role lacks, naming the action', async () => {
    const { owner, others, path } = await group(1);
    const member = others[0]!;
    const outsider = await createUser(publicUrl, internalUrl);
    await connect(publicUrl, member, outsider);
    expect(
      await api(publicUrl, member.token).post(`${path}/members`, { qualified_users: [q(outsider.id)] }),
    ).toMatchObject({
      status: 403,
      body: {
        code: 403,
        label: 'action-denied',
        message: 'Insufficient authorization (missing add_conversation_member)',
      },
    });
    expect(await api(publicUrl, member.token).put(`${path}/name`, { name: 'Mine now' })).toMatchObject({
      status: 403,
      body: { label: 'action-denied', message: 'Insufficient authorization (missing modify_conversation_name)' },
    });
    expect(await api(publicUrl, member.token).del(`${path}/members/example.com/${owner.id}`)).toMatchObject({
      status: 403,
      body: { message: 'Insufficient authorization (missing remove_conversation_member)' },
    });
    // Not connected to the owner's new contact: not-connected.
    const unconnected = await createUser(publicUrl, internalUrl);
    expect(
      await api(publicUrl, owner.token).post(`${path}/members`, { qualified_users: [q(unconnected.id)] }),
    ).toMatchObject({
      status: 403,
      body: wireError(403, 'not-connected'),
    });
  });

  it('removes members (reason removed) and lets members leave (reason left)', async () => {
    const { owner, others, path } = await group(2);
    const [kicked, leaver] = others as [TestUser, TestUser];
    const removed = await api(publicUrl, owner.token).del(`${path}/members/example.com/${kicked.id}`);
    expect(removed).toMatchObject({
      status: 200,
      body: { type: 'conversation.member-leave', from: owner.id, data: { user_ids: [kicked.id], reason: 'removed' } },
    });
    expect((await eventsOf(kicked, 'conversation.member-leave')).map((e: any) => e.data.reason)).toEqual(['removed']);
    expect((await api(publicUrl, kicked.token).get(path)).status).toBe(403);
    expect((await api(publicUrl, owner.token).del(`${path}/members/example.com/${kicked.id}`)).status).toBe(204);
    const left = await api(publicUrl, leaver.token).del(`${path}/members/example.com/${leaver.id}`);
    expect(left.body.data).toMatchObject({ qualified_user_ids: [q(leaver.id)], reason: 'left' });
    expect((await eventsOf(owner, 'conversation.member-leave')).map((e: any) => e.data.reason)).toEqual([
      'removed',
      'left',
    ]);
  });

  it('changes roles of others and the own member state', async () => {
    const { owner, others, path } = await group(1);
    const member = others[0]!;
    expect(
      (
        await api(publicUrl, owner.token).put(`${path}/members/example.com/${member.id}`, {
          conversation_role: 'wire_admin',
        })
      ).status,
    ).toBe(200);
    expect((await api(publicUrl, member.token).get(path)).body.members.self.conversation_role).toBe('wire_admin');
    expect(
      await api(publicUrl, owner.token).put(`${path}/members/example.com/${owner.id}`, {
        conversation_role: 'wire_member',
      }),
    ).toMatchObject({
      status: 403,
      body: wireError(403, 'invalid-op'),
    });
    const ghost = crypto.randomUUID();
    expect(
      await api(publicUrl, owner.token).put(`${path}/members/example.com/${ghost}`, {
        conversation_role: 'wire_member',
      }),
    ).toMatchObject({
      status: 404,
      body: wireError(404, 'no-conversation-member'),
    });

    expect(
      (
        await api(publicUrl, member.token).put(`${path}/self`, {
          otr_muted_status: 3,
          otr_archived: true,
          hidden_ref: 'x',
        })
      ).status,
    ).toBe(200);
    expect((await api(publicUrl, member.token).get(path)).body.members.self).toMatchObject({
      otr_muted_status: 3,
      otr_archived: true,
      hidden_ref: 'x',
    });
    expect((await eventsOf(member, 'conversation.member-update')).at(-1).data).toMatchObject({
      target: member.id,
      otr_muted_status: 3,
    });
    expect((await eventsOf(owner, 'conversation.member-update')).map((e: any) => e.data.target)).toEqual([member.id]);
    expect(await api(publicUrl, member.token).put(`${path}/self`, {})).toMatchObject({
      status: 400,
      body: wireError(400, 'bad-request'),
    });
  });
});

describe('conversation metadata', () => {
  it('renames, sets the timer and receipt mode (204 when unchanged), with events', async () => {
    const { owner, others, path } = await group(1);
    const me = api(publicUrl, owner.token);
    expect((await me.put(`${path}/name`, { name: 'Renamed' })).body).toMatchObject({
      type: 'conversation.rename',
      data: { name: 'Renamed' },
    });
    expect(await me.put(`${path}/name`, { name: 'x'.repeat(257) })).toMatchObject({ status: 400 });
    expect((await me.put(`${path}/message-timer`, { message_timer: 60000 })).body.data).toEqual({
      message_timer: 60000,
    });
    expect((await me.put(`${path}/message-timer`, { message_timer: 60000 })).status).toBe(204);
    expect((await me.put(`${path}/receipt-mode`, { receipt_mode: 1 })).body.data).toEqual({ receipt_mode: 1 });
    expect((await me.put(`${path}/receipt-mode`, { receipt_mode: 1 })).status).toBe(204);
    const types = (await getNotifications(publicUrl, others[0]!.token)).body.notifications.map(
      (n: any) => n.payload[0].type,
    );
    expect(types).toEqual(
      expect.arrayContaining([
        'conversation.rename',
        'conversation.message-timer-update',
        'conversation.receipt-mode-update',
      ]),
    );
    expect((await me.get(path)).body).toMatchObject({ name: 'Renamed', message_timer: 60000, receipt_mode: 1 });
  });

  it('updates access with the legacy role in the event, refusing private and empty roles', async () => {
    const { owner, path } = await group(1);
    const me = api(publicUrl, owner.token);
    const r = await me.put(`${path}/access`, {
      access: ['invite', 'code'],
      access_role: ['team_member', 'non_team_member', 'guest', 'service'],
    });
    expect(r.body).toMatchObject({
      type: 'conversation.access-update',
      data: {
        access: ['invite', 'code'],
        access_role: 'non_activated',
        access_role_v2: ['team_member', 'non_team_member', 'guest', 'service'],
      },
    });
    expect(
      (
        await me.put(`${path}/access`, {
          access: ['invite', 'code'],
          access_role: ['team_member', 'non_team_member', 'guest', 'service'],
        })
      ).status,
    ).toBe(204);
    expect(await me.put(`${path}/access`, { access: ['private'], access_role: ['team_member'] })).toMatchObject({
      status: 403,
      body: wireError(403, 'invalid-op'),
    });
    expect(await me.put(`${path}/access`, { access: ['invite'], access_role: [] })).toMatchObject({
      status: 403,
      body: wireError(403, 'invalid-op'),
    });
  });

  it('sends typing to the other members only, never stored', async () => {
    const { owner, others, path } = await group(1);
    const theirs = await openSocket(publicUrl, `/v8/await?access_token=${others[0]!.token}`);
    // Another session of the typing user: it must not get the typing event either.
    const mine = await openSocket(
      publicUrl,
      `/v8/await?access_token=${(await login(publicUrl, owner.email, owner.password)).token}`,
    );
    expect((await api(publicUrl, owner.token).post(`${path}/typing`, { status: 'started' })).status).toBe(200);
    const typingEvent = await theirs.next((m) => m.payload[0].type === 'conversation.typing');
    expect(typingEvent).toMatchObject({ transient: true, payload: [{ from: owner.id, data: { status: 'started' } }] });
    // The owner's own sockets get nothing: the next event they see is the later rename.
    await api(publicUrl, owner.token).put(`${path}/name`, { name: 'After typing' });
    expect((await mine.next()).payload[0].type).toBe('conversation.rename');
    expect(
      (await getNotifications(publicUrl, others[0]!.token)).body.notifications.map((n: any) => n.payload[0].type),
    ).not.toContain('conversation.typing');
    await theirs.close();
    await mine.close();
  });
});
