import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { legacyConversation } from '../../helpers/legacy-conversation.js';
import { startEditedBackend, type TestBackend } from '../../helpers/backend.js';
import { call, wireError } from '../../helpers/http.js';
import { api, connect, invitedMember, teamOwner, type TeamOwner, type TestUser } from '../../helpers/users.js';
import { openSocket } from '../../helpers/websocket.js';
import {
  getConversation,
  postConversation,
  postSelfConversation,
  putConversationAddPermission,
} from '../../helpers/endpoints/galley.js';

const q = (id: string) => ({ id, domain: 'example.com' });

// A backend of its own lets the test turn a stored group conversation into a channel through its
// D1 database (a channel is an MLS conversation; here only its add permission matters).
describe('PUT /conversations/{cnv_domain}/{cnv}/add-permission', () => {
  let b: TestBackend;
  let owner: TeamOwner;
  let teamAdmin: TestUser;
  let member: TestUser;
  let otherTeam: TeamOwner;
  beforeAll(async () => {
    b = await startEditedBackend([]);
    owner = await teamOwner(b.publicUrl, b.internalUrl);
    teamAdmin = await invitedMember(b.publicUrl, owner, 'admin');
    member = await invitedMember(b.publicUrl, owner);
    otherTeam = await teamOwner(b.publicUrl, b.internalUrl);
    await connect(b.publicUrl, owner, otherTeam);
  });
  afterAll(() => b?.stop());

  /** A team group conversation of the owner (wire_admin); everybody else joins as wire_member. */
  async function group(): Promise<string> {
    const r = await postConversation(b.publicUrl, owner.token, {
      name: 'Room',
      qualified_users: [q(teamAdmin.id), q(member.id), q(otherTeam.id)],
      conversation_role: 'wire_member',
      team: { teamid: owner.team, managed: false },
      access_role: ['team_member', 'non_team_member'],
    });
    expect(r.status, r.text).toBe(201);
    return r.body.qualified_id.id;
  }

  /** The same as a channel (which the API makes over MLS only), as an earlier version left it. */
  async function channel(): Promise<string> {
    return legacyConversation(b, {
      name: 'Room',
      team: owner.team,
      groupConvType: 'channel',
      addPermission: 'everyone',
      accessRole: ['team_member', 'non_team_member'],
      members: [{ id: owner.id }, ...[teamAdmin, member, otherTeam].map((u) => ({ id: u.id, role: 'wire_member' }))],
    });
  }

  const put = (u: TestUser, conv: string, body: unknown) =>
    putConversationAddPermission(b.publicUrl, u.token, { domain: 'example.com', id: conv }, body);

  it("changes a channel's add permission: the event is the answer and reaches the members; unchanged is 204", async () => {
    const conv = await channel();
    expect((await getConversation(b.publicUrl, owner.token, { domain: 'example.com', id: conv })).body).toMatchObject({
      group_conv_type: 'channel',
      add_permission: 'everyone',
    });
    const socket = await openSocket(b.publicUrl, `/v8/await?access_token=${member.token}`);
    const changed = await put(owner, conv, { add_permission: 'admins' });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toEqual({
      type: 'conversation.add-permission-update',
      conversation: conv,
      qualified_conversation: q(conv),
      from: owner.id,
      qualified_from: q(owner.id),
      time: expect.stringMatching(/\.\d{3}Z$/),
      via: 'user',
      team: owner.team,
      data: { add_permission: 'admins' },
    });
    const frame = await socket.next((m) => m.payload?.[0]?.type === 'conversation.add-permission-update');
    await socket.close();
    expect(frame.payload[0]).toEqual(changed.body);
    expect(
      (await getConversation(b.publicUrl, member.token, { domain: 'example.com', id: conv })).body.add_permission,
    ).toBe('admins');

    const again = await put(owner, conv, { add_permission: 'admins' });
    expect(again.status).toBe(204);
    expect(again.text).toBe('');
  });

  it("needs modify_add_permission, except from an admin of the channel's team", async () => {
    const conv = await channel();
    const denied = {
      ...wireError(403, 'action-denied'),
      message: 'Insufficient authorization (missing modify_add_permissions)',
    };
    expect(await put(member, conv, { add_permission: 'admins' })).toMatchObject({ status: 403, body: denied });
    // An admin of another team is no channel manager here.
    expect(await put(otherTeam, conv, { add_permission: 'admins' })).toMatchObject({ status: 403, body: denied });
    // The team admin is a plain wire_member of the channel, yet may (wire's ManageChannels).
    const byTeamAdmin = await put(teamAdmin, conv, { add_permission: 'admins' });
    expect(byTeamAdmin.status, byTeamAdmin.text).toBe(200);
    expect(byTeamAdmin.body).toMatchObject({ from: teamAdmin.id, data: { add_permission: 'admins' } });
    // Outside channels the team role does not count.
    const plain = await group();
    expect(await put(teamAdmin, plain, { add_permission: 'admins' })).toMatchObject({ status: 403, body: denied });
  });

  it('refuses other conversations (invalid-op), strangers and unknown ids (no-conversation), bad input (bad-request)', async () => {
    const plain = await group();
    expect(await put(owner, plain, { add_permission: 'admins' })).toMatchObject({
      status: 403,
      body: { ...wireError(403, 'invalid-op'), message: 'Invalid target access' },
    });
    const self = await postSelfConversation(b.publicUrl, owner.token);
    expect(await put(owner, self.body.qualified_id.id, { add_permission: 'admins' })).toMatchObject({
      status: 403,
      body: wireError(403, 'invalid-op'),
    });

    const conv = await channel();
    const stranger = await teamOwner(b.publicUrl, b.internalUrl);
    expect(await put(stranger, conv, { add_permission: 'admins' })).toMatchObject({
      status: 404,
      body: wireError(404, 'no-conversation'),
    });
    expect(await put(owner, crypto.randomUUID(), { add_permission: 'admins' })).toMatchObject({
      status: 404,
      body: wireError(404, 'no-conversation'),
    });
    expect(
      await putConversationAddPermission(
        b.publicUrl,
        owner.token,
        { domain: 'elsewhere.example.org', id: conv },
        {
          add_permission: 'admins',
        },
      ),
    ).toMatchObject({ status: 404, body: wireError(404, 'no-conversation') });

    for (const body of [{ add_permission: 'nobody' }, { add_permission: 1 }, {}, ['admins']])
      expect(await put(owner, conv, body)).toMatchObject({ status: 400, body: wireError(400, 'bad-request') });
    expect(
      await api(b.publicUrl, owner.token).put('/v8/conversations/example.com/not-a-uuid/add-permission', {
        add_permission: 'admins',
      }),
    ).toMatchObject({
      status: 400,
      body: wireError(400, 'bad-request'),
    });
    const anonymous = await call(b.publicUrl, `/v8/conversations/example.com/${conv}/add-permission`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: '{"add_permission":"admins"}',
    });
    expect(anonymous.status).toBe(401);
    // Nothing of this changed the channel.
    expect(
      (await getConversation(b.publicUrl, owner.token, { domain: 'example.com', id: conv })).body.add_permission,
    ).toBe('everyone');
  });
});
