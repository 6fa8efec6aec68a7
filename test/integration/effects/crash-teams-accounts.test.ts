import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEditedBackend, type TestBackend } from '../../helpers/backend.js';
import { crashBetweenChangesAndEffects, eventsOf, type StreamEvent } from '../../helpers/crash.js';
import { call } from '../../helpers/http.js';
import { startLegalholdService, type LegalholdService } from '../../helpers/legalhold-service.js';
import { teamWithIdp } from '../../helpers/saml-login.js';
import { api, connect, createUser, invitedMember, type TeamOwner, type TestUser } from '../../helpers/users.js';
import { invitationCode } from '../../helpers/mailbox.js';
import {
  acceptTeamInvitation,
  getSelf,
  getTeamInvitations,
  postTeamInvitation,
  putSelf,
} from '../../helpers/endpoints/brig.js';
import {
  deleteTeamConversation,
  deleteTeamMember,
  getConversation,
  getConversationCode,
  getLegalholdStatus,
  getTeamFeature,
  getTeamMember,
  postConversation,
  postConversationCode,
  postLegalholdConsent,
  postLegalholdRequest,
  postLegalholdSettings,
  putTeamFeature,
} from '../../helpers/endpoints/galley.js';
import { createScimToken } from '../../helpers/endpoints/spar.js';

/**
 * A change and its events are one unit, for teams (SCIM's deprovisioning too), accounts, guest
 * links and legal hold: the runtime is killed while one request of each waits right after its
 * writes were committed; after a restart on the same state, each change is there and its events
 * went out, once.
 */

const D = 'example.com';

const ofType = (events: StreamEvent[], type: string) => events.filter((e) => e.type === type);
const inConv = (events: StreamEvent[], type: string, conv: string) =>
  ofType(events, type).filter((e) => e.conversation === conv);

describe('a crash between a team or account change and its events', () => {
  let b: TestBackend;
  let service: LegalholdService;
  let owner: TeamOwner;
  /** removed: leaves the team; witness: stays, and is put under legal hold. */
  let removed: TestUser, witness: TestUser;
  /** A member the team's SCIM client provisioned through its IdP, then deprovisions. */
  let provisioned: string;
  let scimToken: string;
  const scim = (method: string, path: string, body?: unknown) =>
    call(base, `/scim/v2${path}`, {
      method,
      headers: {
        authorization: `Bearer ${scimToken}`,
        ...(body === undefined ? {} : { 'content-type': 'application/scim+json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  /** Personal users: `renamer` updates their profile and makes a guest link; `contact` sees both, and gets an SSO id. */
  let renamer: TestUser, contact: TestUser;
  /** A personal user who accepts the team's invitation (`code`). */
  let joiner: TestUser;
  let code: string;
  const conv = {} as Record<'shared' | 'deleted' | 'linked', string>;
  let base = '';

  async function teamConv(members: TestUser[]) {
    const r = await postConversation(base, owner.token, {
      qualified_users: members.map((u) => ({ id: u.id, domain: D })),
      team: { teamid: owner.team, managed: false },
    });
    expect(r.status, r.text).toBe(201);
    return r.body.qualified_id.id as string;
  }

  beforeAll(async () => {
    [b, service] = await Promise.all([startEditedBackend([], { sidecar: true }), startLegalholdService()]);
    base = b.publicUrl;
    const stateDir = b.stateDir;
    const sso = await teamWithIdp(base, b.internalUrl);
    owner = sso.owner;
    [removed, witness] = [await invitedMember(base, owner), await invitedMember(base, owner)];
    const token = await createScimToken(base, owner.token, {
      description: 'crash test',
      name: 'crash test',
      idp: sso.idpId,
      password: owner.password,
    });
    expect(token.status, token.text).toBe(200);
    scimToken = token.body.token;
    const created = await scim('POST', '/Users', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      userName: `scim-${crypto.randomUUID().slice(0, 8)}`,
      externalId: `scim-${crypto.randomUUID().slice(0, 8)}@corp.example`,
      displayName: 'Provisioned',
    });
    expect(created.status, created.text).toBe(201);
    provisioned = (created.body as { id: string }).id;
    [renamer, contact] = [await createUser(base, b.internalUrl), await createUser(base, b.internalUrl)];
    await connect(base, renamer, contact);
    conv.shared = await teamConv([removed, witness]);
    conv.deleted = await teamConv([witness]);
    const linked = await postConversation(base, renamer.token, {
      name: 'Open',
      qualified_users: [{ id: contact.id, domain: D }],
      access: ['invite', 'code'],
      access_role: ['team_member', 'non_team_member', 'guest', 'service'],
    });
    expect(linked.status, linked.text).toBe(201);
    conv.linked = linked.body.qualified_id.id;
    expect((await putTeamFeature(base, owner.token, owner.team, 'legalhold', { status: 'enabled' })).status).toBe(200);
    const settings = { base_url: service.baseUrl, public_key: service.publicKeyPem, auth_token: service.authToken };
    expect((await postLegalholdSettings(base, owner.token, owner.team, settings)).status).toBe(201);
    expect((await postLegalholdConsent(base, witness.token, owner.team)).status).toBe(201);
    joiner = await createUser(base, b.internalUrl);
    const invited = await postTeamInvitation(base, owner.token, owner.team, { email: joiner.email });
    expect(invited.status, invited.text).toBe(201);
    code = await invitationCode(base, joiner.email);
    await b.stop();

    b = await crashBetweenChangesAndEffects(
      stateDir,
      (fault) => {
        base = fault.publicUrl;
        return [
          deleteTeamMember(base, owner.token, owner.team, removed.id, { password: owner.password }),
          putTeamFeature(base, owner.token, owner.team, 'fileSharing', { status: 'disabled' }),
          deleteTeamConversation(base, owner.token, owner.team, conv.deleted),
          postConversationCode(base, renamer.token, conv.linked, {}),
          putSelf(base, renamer.token, { name: 'Renamed' }),
          postLegalholdRequest(base, owner.token, owner.team, witness.id),
          scim('DELETE', `/Users/${provisioned}`),
          api(fault.internalUrl).put(`/i/users/${contact.id}/sso-id`, { scim_external_id: 'contact@corp.example' }),
          acceptTeamInvitation(base, joiner.token, { code, password: joiner.password }),
        ];
      },
      { sidecar: true },
    );
    base = b.publicUrl;
  });
  afterAll(async () => {
    await b?.stop();
    await service?.stop();
  });

  it('a removed team member is gone, and the team and its conversation heard it once', async () => {
    const gone = await getTeamMember(base, owner.token, owner.team, removed.id);
    expect(gone.status).toBe(404);
    const shared = await getConversation(base, owner.token, { domain: D, id: conv.shared });
    expect(shared.body.members.others.map((m: { id: string }) => m.id)).toEqual([witness.id]);
    for (const u of [owner, witness]) {
      const events = await eventsOf(base, u);
      const left = ofType(events, 'team.member-leave').filter((e) => e.data.user === removed.id);
      expect(left, `team.member-leave to ${u.name}`).toHaveLength(1);
      const convLeft = inConv(events, 'conversation.member-leave', conv.shared);
      expect(convLeft.map((e) => [e.data.user_ids, e.data.reason])).toEqual([[[removed.id], 'user-deleted']]);
    }
  });

  it('a team feature is changed, and the team heard it once', async () => {
    const seen = await getTeamFeature(base, witness.token, owner.team, 'fileSharing');
    expect(seen.body.status).toBe('disabled');
    for (const u of [owner, witness]) {
      const updates = ofType(await eventsOf(base, u), 'feature-config.update').filter((e) => e.name === 'fileSharing');
      expect(updates.map((e) => e.data.status)).toEqual(['disabled']);
    }
  });

  it('a deleted conversation is gone, and its members heard it once', async () => {
    expect((await getConversation(base, witness.token, { domain: D, id: conv.deleted })).status).toBe(404);
    for (const u of [owner, witness])
      expect(inConv(await eventsOf(base, u), 'conversation.delete', conv.deleted)).toHaveLength(1);
    const listed = await api(base, owner.token).get(`/v8/teams/${owner.team}/conversations`);
    expect(listed.body.conversations.map((c: { conversation: string }) => c.conversation).sort()).toEqual(
      [conv.shared].sort(),
    );
  });

  it('a guest link is there, and the members heard of that very link once', async () => {
    const link = await getConversationCode(base, renamer.token, conv.linked);
    expect(link.status, link.text).toBe(200);
    for (const u of [renamer, contact]) {
      const updates = inConv(await eventsOf(base, u), 'conversation.code-update', conv.linked);
      expect(updates.map((e) => e.data)).toEqual([link.body]);
    }
  });

  it('a profile update is made, and the user and their contact heard it once', async () => {
    expect((await getSelf(base, renamer.token)).body.name).toBe('Renamed');
    for (const u of [renamer, contact]) {
      const updates = ofType(await eventsOf(base, u), 'user.update').filter((e) => e.user.id === renamer.id);
      expect(updates.map((e) => e.user.name)).toEqual(['Renamed']);
    }
  });

  it('a legal hold device is requested, and the member and the team heard it once', async () => {
    const status = await getLegalholdStatus(base, witness.token, owner.team, witness.id);
    expect(status.body).toMatchObject({ status: 'pending', client: { id: expect.any(String) } });
    for (const u of [witness, owner]) {
      const requests = ofType(await eventsOf(base, u), 'user.legalhold-request').filter((e) => e.id === witness.id);
      expect(requests.map((e) => e.client)).toEqual([status.body.client]);
    }
  });

  it('a member deprovisioned by SCIM is gone, and the team heard it once', async () => {
    expect((await getTeamMember(base, owner.token, owner.team, provisioned)).status).toBe(404);
    for (const u of [owner, witness]) {
      const left = ofType(await eventsOf(base, u), 'team.member-leave').filter((e) => e.data.user === provisioned);
      expect(left, `team.member-leave to ${u.name}`).toHaveLength(1);
    }
  });

  it('an SSO id spar sets is there, and the user and their contact heard it once', async () => {
    for (const u of [contact, renamer]) {
      const updates = ofType(await eventsOf(base, u), 'user.update').filter((e) => e.user.id === contact.id);
      expect(updates.map((e) => e.user.sso_id)).toEqual([{ scim_external_id: 'contact@corp.example' }]);
    }
  });

  it("a personal user's acceptance of an invitation is made, the invitation used up, and the team queue has it once", async () => {
    expect((await getSelf(base, joiner.token)).body.team).toBe(owner.team);
    const pending = await getTeamInvitations(base, owner.token, owner.team);
    expect(pending.body.invitations.map((i: { email: string }) => i.email)).not.toContain(joiner.email);
    const queue = await api(base, owner.token).get('/v8/teams/notifications');
    const joins = queue.body.notifications
      .flatMap((n: { payload: StreamEvent[] }) => n.payload)
      .filter((e: StreamEvent) => e.type === 'team.member-join' && e.data.user === joiner.id);
    expect(joins).toHaveLength(1);
  });
});
