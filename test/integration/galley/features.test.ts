import { describe, expect, it } from 'vitest';
import { sharedBackend } from '../../helpers/backend.js';
import { wireError } from '../../helpers/http.js';
import { api, createUser, teamOwner } from '../../helpers/users.js';
import { openSocket } from '../../helpers/websocket.js';
import { postLogin } from '../../helpers/endpoints/brig.js';
import {
  getFeatureConfigs,
  getTeamFeature,
  getTeamFeatures,
  postConversation,
  postConversationCode,
  putTeamFeature,
} from '../../helpers/endpoints/galley.js';

const { publicUrl, internalUrl } = sharedBackend();
const internal = api(internalUrl);

const CONTRACT_FEATURES = [
  'appLock',
  'cells',
  'channels',
  'classifiedDomains',
  'conferenceCalling',
  'conversationGuestLinks',
  'digitalSignatures',
  'domainRegistration',
  'enforceFileDownloadLocation',
  'exposeInvitationURLsToTeamAdmin',
  'fileSharing',
  'legalhold',
  'limitedEventFanout',
  'mls',
  'mlsE2EId',
  'mlsMigration',
  'outlookCalIntegration',
  'searchVisibility',
  'searchVisibilityInbound',
  'selfDeletingMessages',
  'sndFactorPasswordChallenge',
  'sso',
  'validateSAMLemails',
];

describe('team features', () => {
  it('shows personal users the server defaults, every feature of the contract in its shape', async () => {
    const u = await createUser(publicUrl, internalUrl);
    const r = await getFeatureConfigs(publicUrl, u.token);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual([...CONTRACT_FEATURES].sort());
    expect(r.body.fileSharing).toEqual({ status: 'enabled', lockStatus: 'unlocked', ttl: 'unlimited' });
    expect(r.body.channels).toEqual({
      status: 'disabled',
      lockStatus: 'locked',
      ttl: 'unlimited',
      config: { allowed_to_create_channels: 'team-members', allowed_to_open_channels: 'team-members' },
    });
    expect(r.body.cells).toMatchObject({ status: 'disabled', lockStatus: 'locked' });
    expect(r.body.mls.config).toMatchObject({ defaultProtocol: 'proteus', supportedProtocols: expect.any(Array) });
  });

  it('lets owners change an unlocked feature, tells the team, and refuses while locked', async () => {
    const owner = await teamOwner(publicUrl, internalUrl);
    expect((await getTeamFeature(publicUrl, owner.token, owner.team, 'fileSharing')).body).toEqual({
      status: 'enabled',
      lockStatus: 'unlocked',
      ttl: 'unlimited',
    });

    const socket = await openSocket(publicUrl, `/v8/await?access_token=${owner.token}`);
    try {
      const changed = await putTeamFeature(publicUrl, owner.token, owner.team, 'fileSharing', { status: 'disabled' });
      expect(changed).toMatchObject({
        status: 200,
        body: { status: 'disabled', lockStatus: 'unlocked', ttl: 'unlimited' },
      });
      const frame = await socket.next((m) => m.payload?.[0]?.type === 'feature-config.update');
      expect(frame.payload[0]).toEqual({
        type: 'feature-config.update',
        name: 'fileSharing',
        team: owner.team,
        data: { status: 'disabled', lockStatus: 'unlocked', ttl: 'unlimited' },
      });
    } finally {
      await socket.close();
    }
    expect((await getTeamFeatures(publicUrl, owner.token, owner.team)).body.fileSharing.status).toBe('disabled');
    expect((await getFeatureConfigs(publicUrl, owner.token)).body.fileSharing.status).toBe('disabled');

    // Locked by an operator: the server's value applies and the owner cannot change it.
    expect(await internal.put(`/i/teams/${owner.team}/features/fileSharing/locked`)).toMatchObject({
      status: 200,
      body: { lockStatus: 'locked' },
    });
    expect((await getTeamFeature(publicUrl, owner.token, owner.team, 'fileSharing')).body).toEqual({
      status: 'enabled',
      lockStatus: 'locked',
      ttl: 'unlimited',
    });
    expect(
      await putTeamFeature(publicUrl, owner.token, owner.team, 'fileSharing', { status: 'disabled' }),
    ).toMatchObject({
      status: 409,
      body: wireError(409, 'feature-locked'),
    });
    // Unlocked again: the team's own choice is back.
    expect((await internal.put(`/i/teams/${owner.team}/features/fileSharing/unlocked`)).status).toBe(200);
    expect((await getTeamFeature(publicUrl, owner.token, owner.team, 'fileSharing')).body.status).toBe('disabled');
  });

  it('keeps teams apart and checks changes', async () => {
    const a = await teamOwner(publicUrl, internalUrl);
    const b = await teamOwner(publicUrl, internalUrl);
    for (const r of [
      await getTeamFeatures(publicUrl, b.token, a.team),
      await getTeamFeature(publicUrl, b.token, a.team, 'fileSharing'),
      await putTeamFeature(publicUrl, b.token, a.team, 'fileSharing', { status: 'disabled' }),
    ])
      expect(r).toMatchObject({ status: 403, body: wireError(403, 'no-team-member') });
    expect((await getTeamFeature(publicUrl, a.token, a.team, 'fileSharing')).body.status).toBe('enabled');
    expect((await putTeamFeature(publicUrl, a.token, a.team, 'sso', { status: 'enabled' })).status).toBe(405);
    expect(await putTeamFeature(publicUrl, a.token, a.team, 'appLock', { status: 'enabled' })).toMatchObject({
      status: 400,
      body: wireError(400, 'bad-request'),
    });
    expect(
      await putTeamFeature(publicUrl, a.token, a.team, 'appLock', {
        status: 'enabled',
        config: { enforceAppLock: true, inactivityTimeoutSecs: 10 },
      }),
    ).toMatchObject({
      status: 400,
      body: wireError(400, 'inactivity-timeout-too-low'),
    });
    const ok = await putTeamFeature(publicUrl, a.token, a.team, 'appLock', {
      status: 'enabled',
      config: { enforceAppLock: true, inactivityTimeoutSecs: 30 },
    });
    expect(ok).toMatchObject({ status: 200, body: { config: { enforceAppLock: true, inactivityTimeoutSecs: 30 } } });
    // mlsE2EId (locked by default): once unlocked, a change through the team API must name a CRL proxy.
    expect((await internal.put(`/i/teams/${a.team}/features/mlsE2EId/unlocked`)).status).toBe(200);
    expect(
      await putTeamFeature(publicUrl, a.token, a.team, 'mlsE2EId', {
        status: 'enabled',
        config: { verificationExpiration: 86400 },
      }),
    ).toMatchObject({
      status: 400,
      body: wireError(400, 'mls-e2eid-missing-crl-proxy'),
    });
    const badAcme = {
      verificationExpiration: 86400,
      crlProxy: 'https://crl.example.com',
      acmeDiscoveryUrl: 'https://example.com/acme',
    };
    expect(
      await putTeamFeature(publicUrl, a.token, a.team, 'mlsE2EId', { status: 'enabled', config: badAcme }),
    ).toMatchObject({
      status: 400,
      body: wireError(400, 'bad-request'),
    });
    const withProxy = await putTeamFeature(publicUrl, a.token, a.team, 'mlsE2EId', {
      status: 'enabled',
      config: {
        verificationExpiration: 86400,
        crlProxy: 'https://crl.example.com',
        acmeDiscoveryUrl: null,
        useProxyOnMobile: null,
      },
    });
    expect(withProxy).toMatchObject({
      status: 200,
      body: { status: 'enabled', config: { crlProxy: 'https://crl.example.com' } },
    });
  });

  it('applies the per-feature rules', async () => {
    const owner = await teamOwner(publicUrl, internalUrl);
    const base = `/i/teams/${owner.team}/features`;
    const mls = (defaultProtocol: string, supportedProtocols: string[]) => ({
      protocolToggleUsers: [],
      defaultProtocol,
      supportedProtocols,
      allowedCipherSuites: [2],
      defaultCipherSuite: 2,
    });
    expect(
      await putTeamFeature(publicUrl, owner.token, owner.team, 'mls', {
        status: 'enabled',
        config: mls('mls', ['proteus']),
      }),
    ).toMatchObject({
      status: 400,
      body: wireError(400, 'mls-protocol-mismatch'),
    });
    expect((await internal.put(`${base}/mlsMigration/unlocked`)).status).toBe(200);
    expect(
      await putTeamFeature(publicUrl, owner.token, owner.team, 'mlsMigration', { status: 'enabled', config: {} }),
    ).toMatchObject({
      status: 400,
      body: wireError(400, 'mls-protocol-mismatch'),
    });
    expect(
      (
        await putTeamFeature(publicUrl, owner.token, owner.team, 'mls', {
          status: 'enabled',
          config: mls('mls', ['proteus', 'mls']),
        })
      ).status,
    ).toBe(200);
    expect(
      (await putTeamFeature(publicUrl, owner.token, owner.team, 'mlsMigration', { status: 'enabled', config: {} }))
        .status,
    ).toBe(200);
    expect(
      await putTeamFeature(publicUrl, owner.token, owner.team, 'mls', {
        status: 'disabled',
        config: mls('proteus', ['proteus', 'mls']),
      }),
    ).toMatchObject({
      status: 400,
      body: wireError(400, 'mls-protocol-mismatch'),
    });
    // sso is switched on once by the back office, never off.
    expect(await internal.put(`${base}/sso`, { status: 'disabled' })).toMatchObject({
      status: 403,
      body: wireError(403, 'not-implemented'),
    });
    expect((await internal.put(`${base}/sso`, { status: 'enabled' })).body.status).toBe('enabled');
    // An empty download location is refused.
    expect((await internal.put(`${base}/enforceFileDownloadLocation/unlocked`)).status).toBe(200);
    expect(
      await putTeamFeature(publicUrl, owner.token, owner.team, 'enforceFileDownloadLocation', {
        status: 'enabled',
        config: { enforcedDownloadLocation: '' },
      }),
    ).toMatchObject({ status: 400, body: wireError(400, 'empty-download-location') });
    expect((await getTeamFeature(publicUrl, owner.token, owner.team, 'exposeInvitationURLsToTeamAdmin')).body).toEqual({
      status: 'disabled',
      lockStatus: 'locked',
      ttl: 'unlimited',
    });
    expect(
      await putTeamFeature(publicUrl, owner.token, owner.team, 'exposeInvitationURLsToTeamAdmin', {
        status: 'enabled',
      }),
    ).toMatchObject({
      status: 409,
      body: wireError(409, 'feature-locked'),
    });
    expect(
      (await internal.patch(`${base}/exposeInvitationURLsToTeamAdmin`, { status: 'enabled', lockStatus: 'unlocked' }))
        .body,
    ).toMatchObject({
      status: 'disabled',
      lockStatus: 'locked',
    });
  });

  it('internal API: any feature of an existing team, with PATCH and lock changes', async () => {
    const owner = await teamOwner(publicUrl, internalUrl);
    const base = `/i/teams/${owner.team}/features`;
    expect(await internal.get(`/i/teams/${crypto.randomUUID()}/features/fileSharing`)).toMatchObject({
      status: 404,
      body: wireError(404, 'no-team'),
    });
    expect((await internal.get(`${base}/cells`)).body).toEqual({
      status: 'disabled',
      lockStatus: 'locked',
      ttl: 'unlimited',
    });
    expect((await internal.patch(`${base}/cells`, { status: 'enabled', lockStatus: 'unlocked' })).body).toEqual({
      status: 'enabled',
      lockStatus: 'unlocked',
      ttl: 'unlimited',
    });
    expect((await getTeamFeature(publicUrl, owner.token, owner.team, 'cells')).body.status).toBe('enabled');
    expect((await internal.put(`${base}/limitedEventFanout`, { status: 'enabled' })).body.status).toBe('enabled');
    expect((await internal.get(`${base}/notAFeature`)).status).toBe(400);
  });

  it('feeds behaviour: guest links and the second factor follow the team value', async () => {
    const owner = await teamOwner(publicUrl, internalUrl);
    const me = api(publicUrl, owner.token);
    const conv = await postConversation(publicUrl, owner.token, {
      name: 'Linkable',
      qualified_users: [],
      team: { teamid: owner.team, managed: false },
      access: ['invite', 'code'],
      access_role: ['team_member', 'non_team_member', 'guest'],
    });
    expect(conv.status, conv.text).toBe(201);
    expect(
      (await internal.put(`/i/teams/${owner.team}/features/conversationGuestLinks`, { status: 'disabled' })).status,
    ).toBe(200);
    expect(await postConversationCode(publicUrl, owner.token, conv.body.qualified_id.id, {})).toMatchObject({
      status: 409,
      body: wireError(409, 'guest-links-disabled'),
    });
    const convFeature = `/v8/conversations/${conv.body.qualified_id.id}/features/conversationGuestLinks`;
    expect((await me.get(convFeature)).body).toEqual({ status: 'disabled', lockStatus: 'unlocked', ttl: 'unlimited' });
    const outsider = await createUser(publicUrl, internalUrl);
    expect(await api(publicUrl, outsider.token).get(convFeature)).toMatchObject({
      status: 403,
      body: wireError(403, 'access-denied'),
    });
    expect(
      (await internal.put(`/i/teams/${owner.team}/features/conversationGuestLinks`, { status: 'enabled' })).status,
    ).toBe(200);
    expect((await postConversationCode(publicUrl, owner.token, conv.body.qualified_id.id, {})).status).toBe(201);

    // Channels: the feature first, then MLS.
    const channel = {
      name: 'Channel',
      qualified_users: [],
      team: { teamid: owner.team, managed: false },
      group_conv_type: 'channel',
    };
    expect(await postConversation(publicUrl, owner.token, channel)).toMatchObject({
      status: 403,
      body: wireError(403, 'channels-not-enabled'),
    });
    expect(
      (await internal.patch(`/i/teams/${owner.team}/features/channels`, { status: 'enabled', lockStatus: 'unlocked' }))
        .status,
    ).toBe(200);
    expect(await postConversation(publicUrl, owner.token, channel)).toMatchObject({
      status: 403,
      body: wireError(403, 'not-mls-conversation'),
    });
    // An MLS channel is created (MLS is on in the shipped configuration).
    const created = await postConversation(publicUrl, owner.token, { ...channel, protocol: 'mls' });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ protocol: 'mls', group_conv_type: 'channel' });

    // Locked by default: while locked the server's "disabled" applies, whatever the team's status.
    const snd = `/i/teams/${owner.team}/features/sndFactorPasswordChallenge`;
    // (the internal PATCH: its PUT, like wire's, refuses a locked feature)
    expect((await internal.patch(snd, { status: 'enabled' })).body).toMatchObject({
      status: 'disabled',
      lockStatus: 'locked',
    });
    expect((await postLogin(publicUrl, { email: owner.email, password: owner.password })).status).toBe(200);
    expect((await internal.put(`${snd}/unlocked`)).status).toBe(200);
    expect(await postLogin(publicUrl, { email: owner.email, password: owner.password })).toMatchObject({
      status: 403,
      body: wireError(403, 'code-authentication-required'),
    });
  });
});
