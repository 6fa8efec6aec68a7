import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEditedBackend, type TestBackend } from '../../helpers/backend.js';
import { addClient } from '../../helpers/clients.js';
import type { Edit } from '../../helpers/config-files.js';
import { call, wireError } from '../../helpers/http.js';
import { startLegalholdService, type LegalholdService } from '../../helpers/legalhold-service.js';
import { otrMessage, postOtr } from '../../helpers/otr.js';
import { rsaTlsIdentity } from '../../helpers/rsa-tls.js';
import {
  api,
  connect,
  createUser,
  invitedMember,
  teamOwner,
  type TeamOwner,
  type TestUser,
} from '../../helpers/users.js';
import {
  claimKeyPackages,
  deleteClient,
  getConnection,
  getSelf,
  getSelfClients,
  getUser,
  postClient,
  postConnection,
} from '../../helpers/endpoints/brig.js';
import {
  addMembers,
  getConversation,
  getLegalholdSettings,
  getLegalholdStatus,
  getTeamFeature,
  getTeamMember,
  getTeamMembers,
  postConversation,
  postLegalholdConsent,
  postLegalholdRequest,
  postLegalholdSettings,
  putTeamFeature,
} from '../../helpers/endpoints/galley.js';
import { getNotifications } from '../../helpers/endpoints/gundeck.js';

type Member = TestUser & { team: string };

/** The user events of a user's stream (no client given: all of them). */
async function userEvents(pub: string, u: TestUser, type: string): Promise<any[]> {
  const r = await getNotifications(pub, u.token, { size: 1000 });
  return r.body.notifications.map((n: any) => n.payload[0]).filter((e: any) => e.type === type);
}

describe('legal hold', () => {
  let b: TestBackend;
  let service: LegalholdService;
  let owner: TeamOwner;
  let member: Member;
  let bystander: Member;
  /** A conversation of owner (its only admin), member and bystander from before legal hold. */
  let earlyConv: string;
  /** A personal user connected to the member before legal hold. */
  let contact: TestUser;
  let pub: string;

  const settings = () => ({
    base_url: service.baseUrl,
    public_key: service.publicKeyPem,
    auth_token: service.authToken,
  });

  beforeAll(async () => {
    [b, service] = await Promise.all([startEditedBackend([], { sidecar: true }), startLegalholdService()]);
    pub = b.publicUrl;
    owner = await teamOwner(pub, b.internalUrl);
    member = await invitedMember(pub, owner);
    bystander = await invitedMember(pub, owner);
    const conv = await postConversation(pub, owner.token, {
      qualified_users: [member, bystander].map((u) => ({ id: u.id, domain: 'example.com' })),
      team: { teamid: owner.team, managed: false },
      conversation_role: 'wire_member',
    });
    expect(conv.status, conv.text).toBe(201);
    earlyConv = conv.body.qualified_id.id;
    contact = await createUser(pub, b.internalUrl);
    await connect(pub, contact, member);
  });
  afterAll(async () => {
    await b?.stop();
    await service?.stop();
  });

  it('is off until the team turns it on; the service is registered by admins, its key pinned', async () => {
    expect((await getLegalholdSettings(pub, owner.token, owner.team)).body).toEqual({ status: 'disabled' });
    const early = await postLegalholdSettings(pub, owner.token, owner.team, settings());
    expect(early.body).toMatchObject(wireError(403, 'legalhold-not-enabled'));

    const on = await putTeamFeature(pub, owner.token, owner.team, 'legalhold', { status: 'enabled' });
    expect(on.status, on.text).toBe(200);
    expect((await getLegalholdSettings(pub, owner.token, owner.team)).body).toEqual({ status: 'not_configured' });

    const byMember = await postLegalholdSettings(pub, member.token, owner.team, settings());
    expect(byMember.body).toMatchObject(wireError(403, 'operation-denied'));
    const badKey = await postLegalholdSettings(pub, owner.token, owner.team, {
      ...settings(),
      public_key: (await rsaTlsIdentity({ bits: 1024 })).publicKeyPem,
    });
    expect(badKey.body).toMatchObject(wireError(400, 'legalhold-invalid-key'));
    // A key other than the one the service presents: the handshake fails the pin.
    const otherKey = await postLegalholdSettings(pub, owner.token, owner.team, {
      ...settings(),
      public_key: (await rsaTlsIdentity()).publicKeyPem,
    });
    expect(otherKey.body).toMatchObject(wireError(412, 'legalhold-unavailable'));
    expect(service.callsTo('/status')).toHaveLength(0);

    const created = await postLegalholdSettings(pub, owner.token, owner.team, settings());
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({
      status: 'configured',
      settings: { team_id: owner.team, base_url: service.baseUrl, auth_token: service.authToken },
    });
    expect(created.body.settings.fingerprint).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(service.callsTo('/status')).toEqual([
      { method: 'GET', path: '/status', authorization: undefined, body: undefined },
    ]);
    const read = await getLegalholdSettings(pub, member.token, owner.team);
    expect(read.body).toEqual(created.body);
  });

  it('asks for consent, then a device the member approves; the service hears each step (v1)', async () => {
    const admin = api(pub, owner.token);
    const mine = api(pub, member.token);
    const statusPath = `/v8/teams/${owner.team}/legalhold/${member.id}`;
    expect((await getLegalholdStatus(pub, member.token, owner.team, member.id)).body).toEqual({ status: 'no_consent' });
    expect((await postLegalholdRequest(pub, owner.token, owner.team, member.id)).body).toMatchObject(
      wireError(409, 'legalhold-no-consent'),
    );
    expect((await postLegalholdConsent(pub, member.token, owner.team)).status).toBe(201);
    expect((await postLegalholdConsent(pub, member.token, owner.team)).status).toBe(204);
    expect((await getLegalholdStatus(pub, member.token, owner.team, member.id)).body).toEqual({ status: 'disabled' });
    // Before legal hold: a conversation the consenting member administers, with two who have not consented.
    const memberConv = await postConversation(pub, member.token, {
      qualified_users: [owner, bystander].map((u) => ({ id: u.id, domain: 'example.com' })),
      team: { teamid: owner.team, managed: false },
    });
    expect(memberConv.status, memberConv.text).toBe(201);
    // Claimable before: the member's Account object keeps that word, which the request must undo.
    const claim = await claimKeyPackages(pub, owner.token, { domain: 'example.com', id: member.id });
    expect(claim.body).toEqual({ key_packages: [] });

    expect((await postLegalholdRequest(pub, member.token, owner.team, member.id)).body).toMatchObject(
      wireError(403, 'operation-denied'),
    );
    const requested = await postLegalholdRequest(pub, owner.token, owner.team, member.id);
    expect(requested.status, requested.text).toBe(201);
    const initiate = service.callsTo('/v1/initiate');
    expect(initiate).toEqual([
      {
        method: 'POST',
        path: '/v1/initiate',
        authorization: `Bearer ${service.authToken}`,
        body: { qualified_user_id: { id: member.id, domain: 'example.com' }, team_id: owner.team },
      },
    ]);
    const first = (await getLegalholdStatus(pub, member.token, owner.team, member.id)).body;
    expect(first).toMatchObject({
      status: 'pending',
      last_prekey: { id: 65535 },
      client: { id: expect.any(String) },
    });
    const [request] = await userEvents(pub, member, 'user.legalhold-request');
    expect(request).toEqual({
      type: 'user.legalhold-request',
      id: member.id,
      last_prekey: first.last_prekey,
      client: first.client,
    });
    // Asking again while pending: the service makes another device, the member hears of it again.
    expect((await postLegalholdRequest(pub, owner.token, owner.team, member.id)).status).toBe(204);
    const pending = (await getLegalholdStatus(pub, member.token, owner.team, member.id)).body;
    expect(pending.client.id).not.toBe(first.client.id);
    const requests = await userEvents(pub, member, 'user.legalhold-request');
    expect(requests.map((e) => e.client.id)).toEqual([first.client.id, pending.client.id]);

    const approvePath = `${statusPath}/approve`;
    expect((await admin.put(approvePath, { password: owner.password })).body).toMatchObject(
      wireError(403, 'access-denied'),
    );
    expect((await mine.put(approvePath, { password: 'wrong-password' })).body).toMatchObject(
      wireError(403, 'access-denied'),
    );
    const approved = await mine.put(approvePath, { password: member.password });
    expect(approved.status, approved.text).toBe(200);
    expect((await getLegalholdStatus(pub, member.token, owner.team, member.id)).body).toEqual({
      ...pending,
      status: 'enabled',
    });
    const [confirm] = service.callsTo('/v1/confirm');
    expect(confirm?.body).toMatchObject({
      qualified_user_id: { id: member.id, domain: 'example.com' },
      team_id: owner.team,
      client_id: pending.client.id,
      refresh_token: expect.any(String),
    });
    const clients = (await getSelfClients(pub, member.token)).body;
    expect(clients).toContainEqual(
      expect.objectContaining({ id: pending.client.id, type: 'legalhold', class: 'legalhold' }),
    );
    expect(await userEvents(pub, owner, 'user.legalhold-enable')).toEqual([
      { type: 'user.legalhold-enable', id: member.id },
    ]);
    // Nobody without consent stays beside the device. Where an admin consented, the others leave;
    // where none did, the member under legal hold leaves. Connections with them are blocked.
    const others = async (token: string, conv: string) =>
      (await getConversation(pub, token, { domain: 'example.com', id: conv })).body.members.others.map(
        (m: any) => m.id,
      );
    expect(await others(member.token, memberConv.body.qualified_id.id)).toEqual([]);
    expect(await others(owner.token, earlyConv)).toEqual([bystander.id]);
    const leaves = await userEvents(pub, bystander, 'conversation.member-leave');
    expect(leaves).toContainEqual(
      expect.objectContaining({
        conversation: earlyConv,
        from: member.id,
        data: expect.objectContaining({ reason: 'left' }),
      }),
    );
    const blocked = { status: 'missing-legalhold-consent' };
    expect((await getConnection(pub, member.token, { domain: 'example.com', id: contact.id })).body).toMatchObject(
      blocked,
    );
    expect((await getConnection(pub, contact.token, { domain: 'example.com', id: member.id })).body).toMatchObject(
      blocked,
    );
    const profile = await getUser(pub, owner.token, { domain: 'example.com', id: member.id });
    expect(profile.body.legalhold_status).toBe('enabled');
    const inTeam = await getTeamMember(pub, owner.token, owner.team, member.id);
    expect(inTeam.body.legalhold_status).toBe('enabled');
    const removed = await deleteClient(pub, member.token, pending.client.id, { password: member.password });
    expect(removed.body).toEqual({
      code: 400,
      label: 'client-error',
      message: 'LegalHold clients cannot be deleted. LegalHold must be disabled on this user by an admin',
    });
  });

  it("gives the service a cookie whose tokens reach only the device's needs", async () => {
    const [confirm] = service.callsTo('/v1/confirm');
    const refresh = confirm!.body.refresh_token as string;
    const access = await call(pub, '/access', { method: 'POST', headers: { cookie: `zuid=${refresh}` } });
    expect(access.status, access.text).toBe(200);
    const client = confirm!.body.client_id as string;
    expect((await getNotifications(pub, access.body.access_token, { client })).status).toBe(200);
    expect((await getUser(pub, access.body.access_token, { domain: 'example.com', id: owner.id })).status).toBe(200);
    expect((await getSelf(pub, access.body.access_token)).body).toMatchObject(wireError(403, 'access-denied'));
    expect((await postClient(pub, access.body.access_token, {})).body).toMatchObject(wireError(403, 'access-denied'));
  });

  it("makes senders include the member's device; nobody without consent sends or joins beside it", async () => {
    const ownerClient = await addClient(pub, owner);
    const device = ((await getSelfClients(pub, member.token)).body as Array<{ id: string; type: string }>).find(
      (d) => d.type === 'legalhold',
    )!.id;
    // The 1:1 conversation with a contact from before, who has not consented: nothing is sent there.
    const one2one = (await getConnection(pub, contact.token, { domain: 'example.com', id: member.id })).body
      .qualified_conversation.id as string;
    const fromContact = await postOtr(pub, contact.token, one2one, otrMessage(await addClient(pub, contact), []));
    expect(fromContact.body).toMatchObject(wireError(403, 'missing-legalhold-consent'));

    for (const u of [owner, bystander]) expect((await postLegalholdConsent(pub, u.token, owner.team)).status).toBe(201);
    const team = { teamid: owner.team, managed: false };
    const conv = await postConversation(pub, owner.token, {
      qualified_users: [member, bystander].map((u) => ({ id: u.id, domain: 'example.com' })),
      team,
    });
    expect(conv.status, conv.text).toBe(201);
    const r = await postOtr(pub, owner.token, conv.body.qualified_id.id, otrMessage(ownerClient, []));
    expect(r.status, r.text).toBe(412);
    expect(r.body.missing['example.com'][member.id]).toContain(device);

    // Someone without consent joins no conversation beside the member.
    const newcomer = await invitedMember(pub, owner);
    const withBoth = await postConversation(pub, owner.token, {
      qualified_users: [member, newcomer].map((u) => ({ id: u.id, domain: 'example.com' })),
      team,
    });
    expect(withBoth.body).toMatchObject(wireError(403, 'missing-legalhold-consent'));
    const added = await addMembers(
      pub,
      owner.token,
      { domain: 'example.com', id: conv.body.qualified_id.id },
      {
        qualified_users: [{ id: newcomer.id, domain: 'example.com' }],
      },
    );
    expect(added.body).toMatchObject(wireError(403, 'missing-legalhold-consent'));
    const withMember = await postConversation(pub, owner.token, {
      qualified_users: [{ id: member.id, domain: 'example.com' }],
      team,
    });
    expect(withMember.status, withMember.text).toBe(201);
  });

  it('keeps a member under legal hold out of MLS and away from users without consent', async () => {
    const claim = await claimKeyPackages(pub, owner.token, { domain: 'example.com', id: member.id });
    expect(claim.body).toMatchObject(wireError(409, 'mls-legal-hold-not-allowed'));
    const personal = await createUser(pub, b.internalUrl);
    const asked = await postConnection(pub, personal.token, { domain: 'example.com', id: member.id });
    expect(asked.body).toMatchObject(wireError(403, 'missing-legalhold-consent'));
    const asking = await postConnection(pub, member.token, { domain: 'example.com', id: personal.id });
    expect(asking.body).toMatchObject(wireError(403, 'missing-legalhold-consent'));
  });

  it('ends for a member when an admin disables it: the device and its cookie go', async () => {
    const admin = api(pub, owner.token);
    const statusPath = `/v8/teams/${owner.team}/legalhold/${member.id}`;
    const [confirm] = service.callsTo('/v1/confirm');
    expect((await admin.del(statusPath, {})).body).toMatchObject(wireError(403, 'access-denied'));
    const off = await admin.del(statusPath, { password: owner.password });
    expect(off.status, off.text).toBe(200);
    expect(service.callsTo('/v1/remove').map((c) => c.body)).toEqual([
      { qualified_user_id: { id: member.id, domain: 'example.com' }, team_id: owner.team },
    ]);
    expect((await getLegalholdStatus(pub, member.token, owner.team, member.id)).body).toEqual({ status: 'disabled' });
    const clients = (await getSelfClients(pub, member.token)).body as Array<{ type: string }>;
    expect(clients.filter((c) => c.type === 'legalhold')).toEqual([]);
    // Connections legal hold blocked are back as they were.
    const accepted = { status: 'accepted' };
    expect((await getConnection(pub, member.token, { domain: 'example.com', id: contact.id })).body).toMatchObject(
      accepted,
    );
    expect((await getConnection(pub, contact.token, { domain: 'example.com', id: member.id })).body).toMatchObject(
      accepted,
    );
    expect(await userEvents(pub, owner, 'user.legalhold-disable')).toEqual([
      { type: 'user.legalhold-disable', id: member.id },
    ]);
    const access = await call(pub, '/access', {
      method: 'POST',
      headers: { cookie: `zuid=${confirm!.body.refresh_token}` },
    });
    expect(access.status).toBe(403);
    expect((await admin.del(statusPath, { password: owner.password })).status).toBe(204);
  });

  it('speaks v0 to a service without /api-version, and changes nothing when the service fails or speaks no common version', async () => {
    const other = await invitedMember(pub, owner);
    expect((await postLegalholdConsent(pub, other.token, owner.team)).status).toBe(201);
    try {
      // A service speaking only versions this backend does not: wire's 500 server-error.
      service.versions = [7];
      expect((await postLegalholdRequest(pub, owner.token, owner.team, other.id)).body).toMatchObject(
        wireError(500, 'server-error'),
      );
      service.versions = undefined;
      service.failing = true;
      expect((await postLegalholdRequest(pub, owner.token, owner.team, other.id)).body).toMatchObject(
        wireError(412, 'legalhold-unavailable'),
      );
      expect((await getLegalholdStatus(pub, owner.token, owner.team, other.id)).body).toEqual({ status: 'disabled' });
      service.failing = false;
      expect((await postLegalholdRequest(pub, owner.token, owner.team, other.id)).status).toBe(201);
      expect(service.callsTo('/initiate').at(-1)?.body).toEqual({ user_id: other.id, team_id: owner.team });
    } finally {
      service.versions = [0, 1];
      service.failing = false;
    }
  });

  it('is refused to members of MLS conversations', async () => {
    const mlsUser = await invitedMember(pub, owner);
    expect((await postLegalholdConsent(pub, mlsUser.token, owner.team)).status).toBe(201);
    const group = await postConversation(pub, mlsUser.token, { protocol: 'mls', qualified_users: [] });
    expect(group.status, group.text).toBe(201);
    const requested = await postLegalholdRequest(pub, owner.token, owner.team, mlsUser.id);
    expect(requested.body).toMatchObject(wireError(409, 'mls-legal-hold-not-allowed'));
    expect((await getLegalholdStatus(pub, owner.token, owner.team, mlsUser.id)).body).toEqual({
      status: 'disabled',
    });
  });

  it('ends for every member when the team turns the feature off', async () => {
    const pendingOne = (await getTeamMembers(pub, owner.token, owner.team)).body.members.find(
      (m: any) => m.legalhold_status === 'pending',
    );
    expect(pendingOne).toBeDefined();
    const off = await putTeamFeature(pub, owner.token, owner.team, 'legalhold', { status: 'disabled' });
    expect(off.status, off.text).toBe(200);
    const after = (await getLegalholdStatus(pub, owner.token, owner.team, pendingOne.user)).body;
    expect(after).toEqual({ status: 'disabled' });
    expect((await getLegalholdSettings(pub, owner.token, owner.team)).body).toEqual({ status: 'disabled' });
  });

  it('stays off for good once the operator says disabled-permanently, leaving the devices there', async () => {
    expect((await putTeamFeature(pub, owner.token, owner.team, 'legalhold', { status: 'enabled' })).status).toBe(200);
    expect((await postLegalholdSettings(pub, owner.token, owner.team, settings())).status).toBe(201);
    const held = await invitedMember(pub, owner);
    expect((await postLegalholdConsent(pub, held.token, owner.team)).status).toBe(201);
    expect((await postLegalholdRequest(pub, owner.token, owner.team, held.id)).status).toBe(201);
    const path = `/v8/teams/${owner.team}/legalhold/${held.id}/approve`;
    expect((await api(pub, held.token).put(path, { password: held.password })).status).toBe(200);

    const { stateDir } = b;
    await b.stop();
    const flag: Edit = ['galley.yaml', ['settings', 'featureFlags', 'legalhold'], 'disabled-permanently'];
    b = await startEditedBackend([flag], { stateDir, migrate: false, sidecar: true });
    pub = b.publicUrl;
    const feature = await getTeamFeature(pub, owner.token, owner.team, 'legalhold');
    expect(feature.body).toMatchObject({ status: 'disabled' });
    const on = await putTeamFeature(pub, owner.token, owner.team, 'legalhold', { status: 'enabled' });
    expect(on.body).toMatchObject(wireError(403, 'legalhold-not-enabled'));
    const devices = (await getSelfClients(pub, held.token)).body as Array<{ type: string }>;
    expect(devices.map((d) => d.type)).toContain('legalhold');
    expect((await getLegalholdStatus(pub, owner.token, owner.team, held.id)).body.status).toBe('enabled');
  });
});
