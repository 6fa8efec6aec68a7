import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedBackend, startEditedBackend, type TestBackend } from '../../helpers/backend.js';
import { call, wireError } from '../../helpers/http.js';
import { legacyConversation } from '../../helpers/legacy-conversation.js';
import { api, createUser, teamOwner, type TeamOwner, type TestUser, invitedMember } from '../../helpers/users.js';
import {
  addMembers,
  deleteTeamConversation,
  getConversation,
  getTeamConversation,
  getTeamConversations,
  postConversation,
  postSelfConversation,
} from '../../helpers/endpoints/galley.js';

const { publicUrl, internalUrl } = sharedBackend();
const q = (id: string) => ({ id, domain: 'example.com' });

const ALL_ACTIONS = [
  'add_conversation_member',
  'remove_conversation_member',
  'modify_conversation_name',
  'modify_conversation_message_timer',
  'modify_conversation_receipt_mode',
  'modify_conversation_access',
  'modify_other_conversation_member',
  'leave_conversation',
  'delete_conversation',
  'modify_add_permission',
];

/** A group conversation of the owner's team with these teammates (as `wire_member`); its id. */
async function teamConversation(pub: string, owner: TeamOwner, members: TestUser[] = []): Promise<string> {
  const r = await postConversation(pub, owner.token, {
    name: 'Team room',
    qualified_users: members.map((m) => q(m.id)),
    conversation_role: 'wire_member',
    team: { teamid: owner.team, managed: false },
    access_role: ['team_member'],
  });
  expect(r.status, r.text).toBe(201);
  return r.body.qualified_id.id;
}

describe('GET /teams/{tid}/conversations[/{cid}|/roles]', () => {
  it('lists every conversation of the team to every member, partners included, whether in it or not', async () => {
    const owner = await teamOwner(publicUrl, internalUrl);
    const partner = await invitedMember(publicUrl, owner, 'partner');
    const withPartner = await teamConversation(publicUrl, owner, [partner]);
    const ownerOnly = await teamConversation(publicUrl, owner);
    const personalGroup = await postConversation(publicUrl, owner.token, {
      name: 'No team',
      qualified_users: [],
    });
    expect(personalGroup.status, personalGroup.text).toBe(201);

    for (const reader of [owner, partner]) {
      const listed = await getTeamConversations(publicUrl, reader.token, owner.team);
      expect(listed.status, listed.text).toBe(200);
      expect(listed.body.conversations).toHaveLength(2);
      expect(listed.body.conversations).toEqual(
        expect.arrayContaining([
          { conversation: withPartner, managed: false },
          { conversation: ownerOnly, managed: false },
        ]),
      );
    }
    expect(await getTeamConversation(publicUrl, partner.token, owner.team, ownerOnly)).toMatchObject({
      status: 200,
      body: { conversation: ownerOnly, managed: false },
    });
    // Not a conversation of this team: a conversation without team, an unknown id.
    for (const cid of [personalGroup.body.qualified_id.id, crypto.randomUUID()])
      expect(await getTeamConversation(publicUrl, partner.token, owner.team, cid)).toMatchObject({
        status: 404,
        body: wireError(404, 'no-conversation'),
      });
  });

  it('lists the two built-in roles with their actions to any team member', async () => {
    const owner = await teamOwner(publicUrl, internalUrl);
    const member = await invitedMember(publicUrl, owner);
    const roles = await api(publicUrl, member.token).get(`/v8/teams/${owner.team}/conversations/roles`);
    expect(roles.status, roles.text).toBe(200);
    expect(roles.body).toEqual({
      conversation_roles: [
        { conversation_role: 'wire_admin', actions: ALL_ACTIONS },
        { conversation_role: 'wire_member', actions: ['leave_conversation'] },
      ],
    });
  });

  it('refuses users outside the team with no-team-member: another team, a personal user, an unknown team', async () => {
    const owner = await teamOwner(publicUrl, internalUrl);
    const conv = await teamConversation(publicUrl, owner);
    const otherTeam = await teamOwner(publicUrl, internalUrl);
    const personal = await createUser(publicUrl, internalUrl);
    const paths = (tid: string) => [
      `/v8/teams/${tid}/conversations`,
      `/v8/teams/${tid}/conversations/roles`,
      `/v8/teams/${tid}/conversations/${conv}`,
    ];
    for (const user of [otherTeam, personal])
      for (const path of paths(owner.team))
        expect(await api(publicUrl, user.token).get(path), path).toMatchObject({
          status: 403,
          body: wireError(403, 'no-team-member'),
        });
    for (const path of paths(crypto.randomUUID()))
      expect(await api(publicUrl, owner.token).get(path), path).toMatchObject({
        status: 403,
        body: wireError(403, 'no-team-member'),
      });
    // The other team's owner sees its own (empty) list, never this team's conversation.
    expect((await getTeamConversations(publicUrl, otherTeam.token, otherTeam.team)).body).toEqual({
      conversations: [],
    });
    expect(await getTeamConversation(publicUrl, otherTeam.token, otherTeam.team, conv)).toMatchObject({
      status: 404,
      body: wireError(404, 'no-conversation'),
    });
    expect(await getTeamConversations(publicUrl, undefined, owner.team)).toMatchObject({ status: 401 });
  });

  it('answers malformed ids with 400 bad-request', async () => {
    const owner = await teamOwner(publicUrl, internalUrl);
    const me = api(publicUrl, owner.token);
    const conv = await teamConversation(publicUrl, owner);
    for (const path of [
      '/v8/teams/not-a-team/conversations',
      '/v8/teams/not-a-team/conversations/roles',
      `/v8/teams/not-a-team/conversations/${conv}`,
      `/v8/teams/${owner.team}/conversations/not-a-conversation`,
      `/v8/teams/${owner.team}/conversations/${conv.slice(0, -1)}`,
    ])
      expect(await me.get(path), path).toMatchObject({ status: 400, body: wireError(400, 'bad-request') });
    for (const path of [`/v8/teams/not-a-team/conversations/${conv}`, `/v8/teams/${owner.team}/conversations/roles`])
      expect(await me.del(path), path).toMatchObject({ status: 400, body: wireError(400, 'bad-request') });
  });

  it('are documented in the v8 and v9 swagger with their operationIds', async () => {
    for (const version of ['v8', 'v9']) {
      const doc = await call(publicUrl, `/${version}/api/swagger.json`);
      expect(doc.status).toBe(200);
      expect(doc.body.paths['/teams/{tid}/conversations'].get.operationId).toBe('get-team-conversations');
      expect(doc.body.paths['/teams/{tid}/conversations/roles'].get.operationId).toBe('get-team-conversation-roles');
      expect(doc.body.paths['/teams/{tid}/conversations/{cid}'].get.operationId).toBe('get-team-conversation');
      expect(doc.body.paths['/teams/{tid}/conversations/{cid}'].delete.operationId).toBe('delete-team-conversation');
      expect(doc.body.paths['/teams/{tid}/conversations/{cid}'].get.responses['404'].description).toMatch(
        /no-conversation/,
      );
    }
  });
});

describe('POST /conversations/{cnv_domain}/{cnv}/members of a team group', () => {
  it('refuses an external partner who is a conversation admin (invalid-op, no AddRemoveConvMember); a member admin adds', async () => {
    const owner = await teamOwner(publicUrl, internalUrl);
    const [partner, member, newcomer] = await Promise.all([
      invitedMember(publicUrl, owner, 'partner'),
      invitedMember(publicUrl, owner, 'member'),
      invitedMember(publicUrl, owner, 'member'),
    ]);
    const created = await postConversation(publicUrl, owner.token, {
      qualified_users: [q(partner.id), q(member.id)],
      conversation_role: 'wire_admin',
      team: { teamid: owner.team, managed: false },
    });
    expect(created.status, created.text).toBe(201);
    expect(
      await addMembers(
        publicUrl,
        partner.token,
        { domain: 'example.com', id: created.body.qualified_id.id },
        { qualified_users: [q(newcomer.id)] },
      ),
    ).toMatchObject({
      status: 403,
      body: { label: 'invalid-op' },
    });
    expect(
      (
        await addMembers(
          publicUrl,
          member.token,
          { domain: 'example.com', id: created.body.qualified_id.id },
          { qualified_users: [q(newcomer.id)] },
        )
      ).status,
    ).toBe(200);
  });
});

describe('DELETE /teams/{tid}/conversations/{cid}, as wire-server checks it', () => {
  it('does not consult tid: a conversation admin deletes through any team id, a team conversation or not', async () => {
    const owner = await teamOwner(publicUrl, internalUrl);
    const conv = await teamConversation(publicUrl, owner);
    expect((await deleteTeamConversation(publicUrl, owner.token, crypto.randomUUID(), conv)).status).toBe(200);
    expect(await getConversation(publicUrl, owner.token, { domain: 'example.com', id: conv })).toMatchObject({
      status: 404,
      body: wireError(404, 'no-conversation'),
    });

    const personalGroup = await postConversation(publicUrl, owner.token, { name: 'No team', qualified_users: [] });
    expect(personalGroup.status, personalGroup.text).toBe(201);
    expect(
      (await deleteTeamConversation(publicUrl, owner.token, owner.team, personalGroup.body.qualified_id.id)).status,
    ).toBe(200);
  });

  it('refuses a conversation that is no group with invalid-op, and non-members (team admins too) with no-conversation', async () => {
    const owner = await teamOwner(publicUrl, internalUrl);
    const admin = await invitedMember(publicUrl, owner, 'admin');
    expect((await postSelfConversation(publicUrl, owner.token)).status).toBe(200); // made with the account
    expect(await deleteTeamConversation(publicUrl, owner.token, owner.team, owner.id)).toMatchObject({
      status: 403,
      body: wireError(403, 'invalid-op'),
    });
    const conv = await teamConversation(publicUrl, owner);
    expect(await deleteTeamConversation(publicUrl, admin.token, owner.team, conv)).toMatchObject({
      status: 404,
      body: wireError(404, 'no-conversation'),
    });
  });
});

describe('DELETE of a channel', () => {
  let b: TestBackend;
  beforeAll(async () => {
    b = await startEditedBackend([]);
  });
  afterAll(() => b?.stop());

  it('lets team admins and owners (ManageChannels) delete it whatever their conversation role; members need the role', async () => {
    const owner = await teamOwner(b.publicUrl, b.internalUrl);
    const admin = await invitedMember(b.publicUrl, owner, 'admin');
    const member = await invitedMember(b.publicUrl, owner);
    // Channels are MLS conversations, which the shipped configuration does not enable: a group as one.
    const conv = await legacyConversation(b, {
      team: owner.team,
      groupConvType: 'channel',
      accessRole: ['team_member'],
      members: [{ id: owner.id }, { id: admin.id, role: 'wire_member' }, { id: member.id, role: 'wire_member' }],
    });
    expect(await deleteTeamConversation(b.publicUrl, member.token, owner.team, conv)).toMatchObject({
      status: 403,
      body: { ...wireError(403, 'action-denied'), message: 'Insufficient authorization (missing delete_conversation)' },
    });
    expect((await deleteTeamConversation(b.publicUrl, admin.token, owner.team, conv)).status).toBe(200);
    expect((await getTeamConversation(b.publicUrl, owner.token, owner.team, conv)).status).toBe(404);
  });
});
