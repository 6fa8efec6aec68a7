import { describe, expect, it } from 'vitest';
import { sharedBackend } from '../../helpers/backend.js';
import { wireError } from '../../helpers/http.js';
import { invitationCode, lastMail } from '../../helpers/mailbox.js';
import { api, createUser, invitedMember, teamOwner, uniqueEmail } from '../../helpers/users.js';
import { openSocket } from '../../helpers/websocket.js';
import {
  acceptTeamInvitation,
  getInvitationInfo,
  getSelf,
  getTeamInvitations,
  getTeamSearch,
  getTeamSize,
  headInvitationByEmail,
  postConnection,
  postLogin,
  postRegister,
  postTeamInvitation,
  postVerificationCodeSend,
  putConnection,
  putSelf,
  putSelfHandle,
  upgradePersonalToTeam,
} from '../../helpers/endpoints/brig.js';
import {
  deleteTeam,
  deleteTeamMember,
  getConversation,
  getTeam,
  getTeamMember,
  getTeamMembers,
  getTeamMembersByIds,
  postConversation,
  putTeam,
  putTeamFeature,
  updateTeamMember,
} from '../../helpers/endpoints/galley.js';
import { getNotifications } from '../../helpers/endpoints/gundeck.js';

const { publicUrl, internalUrl } = sharedBackend();
const password = 'secret-password';
const ROLE = {
  owner: { self: 8191, copy: 8191 },
  admin: { self: 5951, copy: 5951 },
  member: { self: 1587, copy: 1587 },
  partner: { self: 1025, copy: 1025 },
};

describe('teams and invitations', () => {
  it('invites a new address: mail, info with the inviter, registration joins the team and admins hear of it', async () => {
    const owner = await teamOwner(publicUrl, internalUrl, 'Owner', 'Acme');
    const email = uniqueEmail('invitee');
    const sent = await postTeamInvitation(publicUrl, owner.token, owner.team, {
      email,
      role: 'member',
      name: 'Invitee',
    });
    expect(sent.status, sent.text).toBe(201);
    expect(sent.body).toEqual({
      id: expect.any(String),
      team: owner.team,
      email,
      role: 'member',
      name: 'Invitee',
      created_at: expect.any(String),
      created_by: owner.id,
    });
    expect(sent.headers.get('location')).toBe(`/teams/${owner.team}/invitations/${sent.body.id}`);
    const code = await invitationCode(publicUrl, email);
    const info = await getInvitationInfo(publicUrl, undefined, { code });
    expect(info.body).toMatchObject({ id: sent.body.id, team: owner.team, email, created_by_email: owner.email });
    expect((await headInvitationByEmail(publicUrl, undefined, { email })).status).toBe(200);
    expect((await getTeamInvitations(publicUrl, owner.token, owner.team)).body).toMatchObject({
      invitations: [{ id: sent.body.id }],
      has_more: false,
    });

    // A different address cannot use the code.
    expect(await postRegister(publicUrl, { name: 'X', email: uniqueEmail(), password, team_code: code })).toMatchObject(
      {
        status: 400,
        body: wireError(400, 'invalid-invitation-code'),
      },
    );
    const socket = await openSocket(publicUrl, `/v8/await?access_token=${owner.token}`);
    try {
      const r = await postRegister(publicUrl, { name: 'Invitee', email, password, team_code: code });
      expect(r.status, r.text).toBe(201);
      expect(r.body).toMatchObject({ team: owner.team, email });
      const joined = await socket.next((m) => m.payload?.[0]?.type === 'team.member-join');
      expect(joined.payload[0]).toMatchObject({ team: owner.team, data: { user: r.body.id } });
    } finally {
      await socket.close();
    }
    expect((await headInvitationByEmail(publicUrl, undefined, { email })).status).toBe(404);
    expect((await getTeamSize(publicUrl, owner.token, owner.team)).body).toEqual({ teamSize: 2 });
    const members = await getTeamMembers(publicUrl, owner.token, owner.team);
    expect(members.body.hasMore).toBe(false);
    expect(members.body.members).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ user: owner.id, permissions: ROLE.owner }),
        expect.objectContaining({
          user: members.body.members.find((m: any) => m.user !== owner.id).user,
          permissions: ROLE.member,
          created_by: owner.id,
        }),
      ]),
    );
  });

  it('lets an existing personal user accept with the password, when invitations to existing users are allowed', async () => {
    const owner = await teamOwner(publicUrl, internalUrl, 'Owner', 'Acme');
    const me = api(publicUrl, owner.token);
    const personal = await createUser(publicUrl, internalUrl);
    // allow_existing defaults to false up to v6, to true from v7 on (wire-api's InvitationRequest).
    for (const [version, extra] of [
      ['v6', {}],
      ['v6', { allow_existing: false }],
      ['v8', { allow_existing: false }],
    ] as const)
      expect(
        await me.post(`/${version}/teams/${owner.team}/invitations`, { email: personal.email, ...extra }),
      ).toMatchObject({
        status: 409,
        body: wireError(409, 'email-exists'),
      });
    expect(
      (await me.post(`/v6/teams/${owner.team}/invitations`, { email: personal.email, allow_existing: true })).status,
    ).toBe(201);
    const invited = await postTeamInvitation(publicUrl, owner.token, owner.team, { email: personal.email });
    expect(invited.status, invited.text).toBe(201);
    // Existing users are sent below the account pages (no emailSMS.team in the shipped config).
    expect((await lastMail(publicUrl, personal.email)).text).toContain(
      'http://127.0.0.1:8080/account/accept-invitation/?team-code=',
    );
    const code = await invitationCode(publicUrl, personal.email);
    expect(await acceptTeamInvitation(publicUrl, personal.token, { code, password: 'wrong-password' })).toMatchObject({
      status: 403,
      body: wireError(403, 'invalid-credentials'),
    });
    expect((await acceptTeamInvitation(publicUrl, personal.token, { code, password: personal.password })).status).toBe(
      200,
    );
    expect((await getSelf(publicUrl, personal.token)).body.team).toBe(owner.team);
    expect((await getTeamMember(publicUrl, owner.token, owner.team, personal.id)).body).toMatchObject({
      user: personal.id,
      permissions: ROLE.member,
    });
    expect(await acceptTeamInvitation(publicUrl, personal.token, { code, password: personal.password })).toMatchObject({
      status: 400,
      body: wireError(400, 'invalid-invitation-code'),
    });
  });

  it('enforces permissions: members cannot invite, change team data or features; roles change within limits', async () => {
    const owner = await teamOwner(publicUrl, internalUrl, 'Owner', 'Acme');
    const member = await invitedMember(publicUrl, owner);
    const admin = await invitedMember(publicUrl, owner, 'admin');
    expect(await postTeamInvitation(publicUrl, member.token, owner.team, { email: uniqueEmail() })).toMatchObject({
      status: 403,
      body: wireError(403, 'insufficient-permissions'),
    });
    expect(await putTeam(publicUrl, member.token, owner.team, { name: 'Mine' })).toMatchObject({
      status: 403,
      body: wireError(403, 'operation-denied'),
    });
    expect(
      await putTeamFeature(publicUrl, member.token, owner.team, 'fileSharing', { status: 'disabled' }),
    ).toMatchObject({
      status: 403,
      body: wireError(403, 'operation-denied'),
    });
    expect((await getTeam(publicUrl, member.token, owner.team)).body).toMatchObject({
      id: owner.team,
      name: 'Acme',
      creator: owner.id,
      binding: true,
    });
    expect(
      await postTeamInvitation(publicUrl, admin.token, owner.team, { email: uniqueEmail(), role: 'owner' }),
    ).toMatchObject({
      status: 403,
      body: wireError(403, 'insufficient-permissions'),
    });
    expect(
      await updateTeamMember(publicUrl, admin.token, owner.team, {
        member: { user: member.id, permissions: ROLE.owner },
      }),
    ).toMatchObject({
      status: 403,
      body: wireError(403, 'operation-denied'),
    });
    expect(
      await updateTeamMember(publicUrl, admin.token, owner.team, {
        member: { user: owner.id, permissions: ROLE.member },
      }),
    ).toMatchObject({
      status: 403,
      body: wireError(403, 'operation-denied'),
    });
    expect(
      await updateTeamMember(publicUrl, admin.token, owner.team, {
        member: { user: member.id, permissions: { self: 1587, copy: 1 } },
      }),
    ).toMatchObject({
      status: 403,
      body: wireError(403, 'invalid-permissions'),
    });

    const socket = await openSocket(publicUrl, `/v8/await?access_token=${owner.token}`);
    try {
      expect(
        (
          await updateTeamMember(publicUrl, admin.token, owner.team, {
            member: { user: member.id, permissions: ROLE.partner },
          })
        ).status,
      ).toBe(200);
      const update = await socket.next((m) => m.payload?.[0]?.type === 'team.member-update');
      expect(update.payload[0]).toMatchObject({
        team: owner.team,
        data: { user: member.id, permissions: ROLE.partner },
      });
    } finally {
      await socket.close();
    }
    // Partners cannot see permissions.
    const seen = await getTeamMember(publicUrl, member.token, owner.team, owner.id);
    expect(seen.body).toEqual({ user: owner.id, legalhold_status: 'no_consent' });
    // The last owner stays an owner.
    expect(
      await updateTeamMember(publicUrl, owner.token, owner.team, {
        member: { user: owner.id, permissions: ROLE.admin },
      }),
    ).toMatchObject({
      status: 403,
      body: wireError(403, 'no-other-owner'),
    });
    const renamed = await putTeam(publicUrl, admin.token, owner.team, {
      name: 'Acme 2',
      icon: 'new-icon',
    });
    expect(renamed.status).toBe(200);
    expect((await getTeam(publicUrl, owner.token, owner.team)).body).toMatchObject({
      name: 'Acme 2',
      icon: 'new-icon',
    });
  });

  it('keeps teams apart', async () => {
    const a = await teamOwner(publicUrl, internalUrl, 'Owner', 'Acme');
    const b = await teamOwner(publicUrl, internalUrl, 'Owner', 'Acme');
    expect(await getTeam(publicUrl, b.token, a.team)).toMatchObject({ status: 404, body: wireError(404, 'no-team') });
    for (const r of [
      await getTeamMembers(publicUrl, b.token, a.team),
      await getTeamMember(publicUrl, b.token, a.team, a.id),
      await getTeamSize(publicUrl, b.token, a.team),
      await getTeamMembersByIds(publicUrl, b.token, a.team, { user_ids: [a.id] }),
      await putTeam(publicUrl, b.token, a.team, { name: 'Hijacked' }),
    ])
      expect(r).toMatchObject({ status: 403, body: wireError(403, 'no-team-member') });
    for (const r of [
      await getTeamInvitations(publicUrl, b.token, a.team),
      await postTeamInvitation(publicUrl, b.token, a.team, { email: uniqueEmail() }),
    ])
      expect(r).toMatchObject({ status: 403, body: wireError(403, 'insufficient-permissions') });
    const byIds = await getTeamMembersByIds(publicUrl, a.token, a.team, {
      user_ids: [a.id, b.id],
    });
    expect(byIds.body).toEqual({ members: [expect.objectContaining({ user: a.id })], hasMore: false });
  });
});

describe('POST /upgrade-personal-to-team', () => {
  it('makes a personal user the owner of a new team, once', async () => {
    const u = await createUser(publicUrl, internalUrl);
    const socket = await openSocket(publicUrl, `/v8/await?access_token=${u.token}`);
    try {
      const r = await upgradePersonalToTeam(publicUrl, u.token, { name: 'Grown up', icon: 'default' });
      expect(r.status, r.text).toBe(200);
      expect(r.body).toEqual({ team_id: expect.any(String), team_name: 'Grown up' });
      const created = await socket.next((m) => m.payload?.[0]?.type === 'team.create');
      expect(created.payload[0]).toMatchObject({
        team: r.body.team_id,
        data: { id: r.body.team_id, creator: u.id, name: 'Grown up' },
      });
      expect((await getSelf(publicUrl, u.token)).body.team).toBe(r.body.team_id);
      expect((await getTeamMember(publicUrl, u.token, r.body.team_id, u.id)).body).toMatchObject({
        permissions: ROLE.owner,
      });
      expect(await upgradePersonalToTeam(publicUrl, u.token, { name: 'Again', icon: 'default' })).toMatchObject({
        status: 403,
        body: wireError(403, 'user-already-in-a-team'),
      });
    } finally {
      await socket.close();
    }
  });
});

describe('GET /teams/{tid}/members/csv', () => {
  it('streams every member to owners and admins, with devices, last activity and status, formulas defused', async () => {
    const owner = await teamOwner(publicUrl, internalUrl, 'Owner', 'Acme');
    expect((await putSelfHandle(publicUrl, owner.token, { handle: `boss-${owner.id.slice(0, 8)}` })).status).toBe(200);
    const member = await invitedMember(publicUrl, owner);
    expect((await putSelf(publicUrl, member.token, { name: '=HYPERLINK("x")' })).status).toBe(200);
    const res = await fetch(`${publicUrl}/v8/teams/${owner.team}/members/csv`, {
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv');
    const lines = (await res.text()).trim().split('\r\n');
    expect(lines[0]).toBe(
      'display_name,handle,email,role,created_on,invited_by,idp_issuer,managed_by,saml_name_id,scim_external_id,scim_rich_info,user_id,num_devices,last_active,status',
    );
    expect(lines).toHaveLength(3);
    const row = lines.find((l) => l.includes(member.id))!;
    expect(row).toContain(`"'=HYPERLINK(""x"")"`);
    expect(row).toContain(`"member","`);
    expect(row).toContain(`"boss-${owner.id.slice(0, 8)}"`);
    expect(row.endsWith(`"${member.id}","0","","active"`)).toBe(true);
    const denied = await api(publicUrl, member.token).get(`/v8/teams/${owner.team}/members/csv`);
    expect(denied).toMatchObject({ status: 403, body: wireError(403, 'access-denied') });
  });
});

describe('DELETE /teams/{tid}/members/{uid}', () => {
  it('removes and deletes a member after re-authentication; admins hear of the team and of each conversation', async () => {
    const owner = await teamOwner(publicUrl, internalUrl, 'Owner', 'Acme');
    const admin = await invitedMember(publicUrl, owner, 'admin');
    const member = await invitedMember(publicUrl, owner);
    const conv = await postConversation(publicUrl, owner.token, {
      name: 'Room',
      qualified_users: [{ id: member.id, domain: 'example.com' }],
      team: { teamid: owner.team, managed: false },
    });
    expect(conv.status, conv.text).toBe(201);
    expect(await deleteTeamMember(publicUrl, member.token, owner.team, admin.id, { password })).toMatchObject({
      status: 403,
      body: wireError(403, 'operation-denied'),
    });
    expect(await deleteTeamMember(publicUrl, admin.token, owner.team, owner.id, { password })).toMatchObject({
      status: 403,
      body: wireError(403, 'operation-denied'),
    });
    expect(await deleteTeamMember(publicUrl, owner.token, owner.team, member.id, {})).toMatchObject({
      status: 403,
      body: wireError(403, 'access-denied'),
    });
    expect(
      await deleteTeamMember(publicUrl, owner.token, owner.team, member.id, { password: 'wrong-password' }),
    ).toMatchObject({
      status: 403,
      body: wireError(403, 'access-denied'),
    });

    const socket = await openSocket(publicUrl, `/v8/await?access_token=${admin.token}`);
    try {
      expect((await deleteTeamMember(publicUrl, owner.token, owner.team, member.id, { password })).status).toBe(202);
      const left = await socket.next((m) => m.payload?.[0]?.type === 'team.member-leave');
      expect(left.payload[0]).toMatchObject({ team: owner.team, data: { user: member.id } });
      const convLeft = await socket.next((m) => m.payload?.[0]?.type === 'conversation.member-leave');
      expect(convLeft.payload[0]).toMatchObject({
        qualified_conversation: conv.body.qualified_id,
        data: { user_ids: [member.id], reason: 'user-deleted' },
      });
    } finally {
      await socket.close();
    }
    expect((await getTeamSize(publicUrl, owner.token, owner.team)).body).toEqual({ teamSize: 2 });
    expect(await getTeamMember(publicUrl, owner.token, owner.team, member.id)).toMatchObject({
      status: 404,
      body: wireError(404, 'no-team-member'),
    });
    expect((await postLogin(publicUrl, { email: member.email, password })).status).toBe(403);
  });

  it('tells every member of a removal, or only owners and admins with limitedEventFanout', async () => {
    const owner = await teamOwner(publicUrl, internalUrl, 'Owner', 'Acme');
    const watcher = await invitedMember(publicUrl, owner);
    const socket = await openSocket(publicUrl, `/v8/await?access_token=${watcher.token}`);
    try {
      const first = await invitedMember(publicUrl, owner);
      expect((await deleteTeamMember(publicUrl, owner.token, owner.team, first.id, { password })).status).toBe(202);
      expect((await socket.next((m) => m.payload?.[0]?.type === 'team.member-leave')).payload[0].data).toEqual({
        user: first.id,
      });

      expect(
        (await api(internalUrl).put(`/i/teams/${owner.team}/features/limitedEventFanout`, { status: 'enabled' }))
          .status,
      ).toBe(200);
      const second = await invitedMember(publicUrl, owner);
      expect((await deleteTeamMember(publicUrl, owner.token, owner.team, second.id, { password })).status).toBe(202);
      // Events are stored before the removal is answered: the streams can be read right away.
      const ownerView = await getNotifications(publicUrl, owner.token);
      expect(
        ownerView.body.notifications
          .map((n: any) => n.payload[0])
          .some((e: any) => e.type === 'team.member-leave' && e.data.user === second.id),
      ).toBe(true);
      const watcherView = await getNotifications(publicUrl, watcher.token);
      expect(
        watcherView.body.notifications
          .map((n: any) => n.payload[0])
          .some((e: any) => e.type === 'team.member-leave' && e.data.user === second.id),
      ).toBe(false);
    } finally {
      await socket.close();
    }
  });
});

describe('DELETE /teams/{tid}', () => {
  it('lets the owner delete the team with password and second factor: members, conversations and data go', async () => {
    const owner = await teamOwner(publicUrl, internalUrl, 'Owner', 'Acme');
    const member = await invitedMember(publicUrl, owner);
    const guest = await createUser(publicUrl, internalUrl);
    expect((await postConnection(publicUrl, owner.token, { domain: 'example.com', id: guest.id })).status).toBe(201);
    expect(
      (await putConnection(publicUrl, guest.token, { domain: 'example.com', id: owner.id }, { status: 'accepted' }))
        .status,
    ).toBe(200);
    const conv = await postConversation(publicUrl, owner.token, {
      name: 'Room',
      qualified_users: [
        { id: member.id, domain: 'example.com' },
        { id: guest.id, domain: 'example.com' },
      ],
      team: { teamid: owner.team, managed: false },
      access_role: ['team_member', 'non_team_member'],
    });
    expect(conv.status, conv.text).toBe(201);
    expect(await deleteTeam(publicUrl, member.token, owner.team, { password })).toMatchObject({
      status: 403,
      body: wireError(403, 'operation-denied'),
    });
    expect(await deleteTeam(publicUrl, owner.token, owner.team, {})).toMatchObject({
      status: 403,
      body: wireError(403, 'access-denied'),
    });
    // With the second factor on for the team, a code is needed too.
    const snd = `/i/teams/${owner.team}/features/sndFactorPasswordChallenge`;
    expect((await api(internalUrl).patch(snd, { status: 'enabled', lockStatus: 'unlocked' })).status).toBe(200);
    expect(await deleteTeam(publicUrl, owner.token, owner.team, { password })).toMatchObject({
      status: 403,
      body: wireError(403, 'code-authentication-required'),
    });
    expect(
      (await postVerificationCodeSend(publicUrl, undefined, { action: 'delete_team', email: owner.email })).status,
    ).toBe(200);
    const code = (await api(internalUrl).get(`/i/users/${owner.id}/verification-code/delete_team`)).body as string;

    const memberSocket = await openSocket(publicUrl, `/v8/await?access_token=${member.token}`);
    const guestSocket = await openSocket(publicUrl, `/v8/await?access_token=${guest.token}`);
    try {
      expect((await deleteTeam(publicUrl, owner.token, owner.team, { password, verification_code: code })).status).toBe(
        202,
      );
      expect((await memberSocket.next((m) => m.payload?.[0]?.type === 'team.delete')).payload[0]).toMatchObject({
        team: owner.team,
        data: null,
      });
      const deleted = await guestSocket.next((m) => m.payload?.[0]?.type === 'conversation.delete');
      expect(deleted.payload[0]).toMatchObject({ qualified_conversation: conv.body.qualified_id, team: owner.team });
    } finally {
      await memberSocket.close();
      await guestSocket.close();
    }
    expect((await postLogin(publicUrl, { email: owner.email, password })).status).toBe(403);
    expect((await postLogin(publicUrl, { email: member.email, password })).status).toBe(403);
    expect(
      (await getConversation(publicUrl, guest.token, { domain: 'example.com', id: conv.body.qualified_id.id })).status,
    ).toBe(404);
    expect((await getSelf(publicUrl, guest.token)).status).toBe(200);
  });
});

describe('GET /teams/{tid}/search', () => {
  it('pages through members by a unique key, filters by role and prefix, for admins only', async () => {
    const owner = await teamOwner(publicUrl, internalUrl, 'Owner', 'Acme');
    const members = [
      await invitedMember(publicUrl, owner),
      await invitedMember(publicUrl, owner),
      await invitedMember(publicUrl, owner, 'admin'),
    ];
    const me = api(publicUrl, owner.token);
    const all = new Set<string>();
    let state: string | undefined;
    for (let pages = 0; pages < 5; pages++) {
      const r = await me.get(
        `/v8/teams/${owner.team}/search?size=1&sortby=name${state ? `&pagingState=${encodeURIComponent(state)}` : ''}`,
      );
      expect(r.status, r.text).toBe(200);
      expect(r.body).toMatchObject({ found: 4, returned: r.body.documents.length, search_policy: 'full_search' });
      for (const d of r.body.documents) all.add(d.id);
      state = r.body.paging_state;
      if (!r.body.has_more) break;
    }
    // Several members share a name (the role): the key still gives each exactly once.
    expect([...all].sort()).toEqual([owner.id, ...members.map((m) => m.id)].sort());
    const admins = await me.get(`/v8/teams/${owner.team}/search?frole=admin&frole=owner`);
    expect(admins.body.documents.map((d: any) => d.role).sort()).toEqual(['admin', 'owner']);
    const byName = await getTeamSearch(publicUrl, owner.token, owner.team, { q: 'adm' });
    expect(byName.body.documents).toEqual([
      expect.objectContaining({ id: members[2]!.id, name: 'admin', role: 'admin', team: owner.team }),
    ]);
    expect(await getTeamSearch(publicUrl, members[0]!.token, owner.team)).toMatchObject({
      status: 403,
      body: wireError(403, 'insufficient-permissions'),
    });
    expect((await getTeamSearch(publicUrl, owner.token, owner.team, { pagingState: 'nonsense' })).status).toBe(400);
  });
});
