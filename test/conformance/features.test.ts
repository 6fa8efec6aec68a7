import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEditedBackend, type TestBackend } from '../helpers/backend.js';
import { call } from '../helpers/http.js';
import {
  type Access,
  checkFeature,
  checkPatch,
  disabled,
  disabledLocked,
  enabled,
  getFeatureInternal,
  patchFeature,
  putFeatureInternal,
  runFeatureTests,
  setFeatureStatus,
  setFlag,
  setLockStatus,
} from './lib/identity-features.js';
import {
  as,
  type Backend,
  createTeam,
  expectError,
  expectStatus,
  ownBackend,
  randomUser,
  type User,
  userSocket,
} from './lib/identity-users.js';

const own = ownBackend();

/**
 * The features with the shipped config/galley.yaml: what wire's defAllFeatures are for its test
 * configuration. Features of wire's newer API versions (cellsInternal, apps, meetings, ...) are not
 * in this backend's contract (see README-identity.md).
 */
const DEFAULTS: Record<string, any> = {
  legalhold: disabled,
  sso: disabled,
  searchVisibility: disabled,
  searchVisibilityInbound: disabled,
  validateSAMLemails: enabled,
  digitalSignatures: disabledLocked,
  appLock: { ...enabled, config: { enforceAppLock: false, inactivityTimeoutSecs: 60 } },
  fileSharing: enabled,
  classifiedDomains: { ...disabled, config: { domains: [] } },
  conferenceCalling: { ...enabled, lockStatus: 'locked', config: { useSFTForOneToOneCalls: false } },
  selfDeletingMessages: { ...enabled, config: { enforcedTimeoutSeconds: 0 } },
  conversationGuestLinks: enabled,
  sndFactorPasswordChallenge: disabledLocked,
  mls: {
    ...disabled,
    config: {
      protocolToggleUsers: [],
      defaultProtocol: 'proteus',
      supportedProtocols: ['proteus', 'mls'],
      allowedCipherSuites: [2],
      defaultCipherSuite: 2,
    },
  },
  exposeInvitationURLsToTeamAdmin: disabledLocked,
  outlookCalIntegration: disabledLocked,
  mlsE2EId: { ...disabled, config: { verificationExpiration: 86400, useProxyOnMobile: false } },
  mlsMigration: { ...disabledLocked, config: {} },
  enforceFileDownloadLocation: { ...disabledLocked, config: {} },
  limitedEventFanout: disabled,
  domainRegistration: disabledLocked,
  channels: {
    ...disabledLocked,
    config: { allowed_to_create_channels: 'team-members', allowed_to_open_channels: 'team-members' },
  },
  cells: disabledLocked,
};

const ACCESS: Access[] = ['internal', 'public'];
const forAccess = (name: string, body: (access: Access) => Promise<void>) => {
  for (const access of ACCESS) it(`${name}[api=${access}]`, () => body(access));
};
const expectForbidden = (r: { status: number; body: any; text: string }) =>
  expectError(r as any, 403, 'no-team-member');

describe('FeatureFlags', () => {
  it('FeatureFlags.testLimitedEventFanout', async () => {
    const { tid } = await createTeam(own);
    expect((await getFeatureInternal(own, tid, 'limitedEventFanout')).body.status).toBe('disabled');
    expectStatus(await setFeatureStatus(own, tid, 'limitedEventFanout', 'enabled'), 200);
    expect((await getFeatureInternal(own, tid, 'limitedEventFanout')).body.status).toBe('enabled');
  });

  it('FeatureFlags.testAllFeatures', async () => {
    const { tid, members } = await createTeam(own, 2);
    const m = members[0]!;
    const all = async (u: User, path: string) => {
      const r = await as(u).get(path);
      expectStatus(r, 200);
      expect(r.body).toEqual(DEFAULTS);
    };
    await all(m, `/teams/${tid}/features`);
    expectStatus(await putFeatureInternal(own, tid, 'conversationGuestLinks', enabled), 200);
    await all(m, `/teams/${tid}/features`);
    await all(m, '/feature-configs');
    await all(await randomUser(own), '/feature-configs');
  });

  it('FeatureFlags.testFeatureConfigConsistency', async () => {
    const { tid, members } = await createTeam(own, 2);
    const configs = Object.keys((await as(members[0]!).get('/feature-configs')).body);
    const teams = Object.keys((await as(members[0]!).get(`/teams/${tid}/features`)).body);
    for (const name of teams) expect(configs).toContain(name);
  });

  for (const name of Object.keys(DEFAULTS))
    it(`FeatureFlags.testNonMemberAccess[feature=${name}]`, async () => {
      const { tid } = await createTeam(own);
      const nonMember = await randomUser(own);
      expectForbidden(await as(nonMember).get(`/teams/${tid}/features/${name}`));
    });
});

describe('FeatureFlags per feature', () => {
  const patch = (name: string, p: Record<string, any>, compute?: Parameters<typeof checkPatch>[4]) =>
    checkPatch(own, DEFAULTS, name, p, compute);
  const run = (access: Access, name: string, updates: any[], invalidUpdates: any[] = [], owner?: User) =>
    runFeatureTests(own, access, DEFAULTS, { name, updates, invalidUpdates, ...(owner ? { owner } : {}) });
  const internalFlags = async (name: string, values: any[], unlock = false) => {
    const { owner, tid } = await createTeam(own);
    if (unlock) await setLockStatus(own, tid, name, 'unlocked');
    const ws = await userSocket(owner);
    try {
      for (const v of values) await setFlag('internal', ws, owner, tid, name, v);
    } finally {
      await ws.close();
    }
  };

  it('AppLock.testPatchAppLock', async () => {
    await patch('appLock', { lockStatus: 'locked' });
    await patch('appLock', { status: 'disabled' });
    await patch('appLock', { lockStatus: 'locked', status: 'disabled' });
    await patch('appLock', { lockStatus: 'unlocked', config: { enforceAppLock: true, inactivityTimeoutSecs: 120 } });
    await patch('appLock', { config: { enforceAppLock: true, inactivityTimeoutSecs: 240 } });
  });

  it('ConferenceCalling.testPatchConferenceCalling', async () => {
    // conference calling's status follows an unlock: enabled unless the patch says otherwise
    const compute: Parameters<typeof checkPatch>[4] = (key, def, p) =>
      key === 'status' ? (p.status ?? 'enabled') : (p[key] ?? def[key]);
    await patch('conferenceCalling', { lockStatus: 'locked' }, compute);
    await patch('conferenceCalling', { status: 'disabled' }, compute);
    await patch('conferenceCalling', { lockStatus: 'locked', status: 'disabled' }, compute);
    await patch('conferenceCalling', { lockStatus: 'unlocked', config: { useSFTForOneToOneCalls: true } }, compute);
  });

  const confCalling = (sft: unknown) => ({
    ttl: 'unlimited',
    status: 'disabled',
    config: { useSFTForOneToOneCalls: sft },
  });
  forAccess('ConferenceCalling.testConferenceCalling', (access) =>
    run(access, 'conferenceCalling', [confCalling(true), confCalling(false)], [confCalling(0)]),
  );

  it('FileSharing.testPatchFileSharing', () => patch('fileSharing', disabled));
  forAccess('FileSharing.testFileSharing', (access) => run(access, 'fileSharing', [disabled, enabled]));

  forAccess('GuestLinks.testConversationGuestLinks', (access) =>
    run(access, 'conversationGuestLinks', [disabled, enabled]),
  );
  it('GuestLinks.testPatchGuestLinks', () => patch('conversationGuestLinks', disabled));

  for (const how of ['put', 'patch'] as const)
    it(`SSO.testSSODisabledByDefault[${how}]`, async () => {
      // the shipped configuration has sso: disabled-by-default, as the scenario sets
      const { owner, tid, members } = await createTeam(own, 2);
      const nonMember = await randomUser(own);
      expectForbidden(await as(nonMember).get(`/teams/${tid}/features/sso`));
      await checkFeature('sso', members[0]!, tid, disabled);
      const r =
        how === 'put'
          ? await putFeatureInternal(own, tid, 'sso', { status: 'enabled' })
          : await setFeatureStatus(own, tid, 'sso', 'enabled');
      expectStatus(r, 200);
      await checkFeature('sso', owner, tid, enabled);
    });

  it('SearchVisibilityAvailable.testPatchSearchVisibility', () => patch('searchVisibility', enabled));
  it('SearchVisibilityAvailable.testSearchVisibilityDisabledByDefault', async () => {
    const { owner, tid, members } = await createTeam(own, 2);
    await checkFeature('searchVisibility', members[0]!, tid, disabled);
    expectStatus(await setFeatureStatus(own, tid, 'searchVisibility', 'enabled'), 200);
    await checkFeature('searchVisibility', owner, tid, enabled);
    expectStatus(await setFeatureStatus(own, tid, 'searchVisibility', 'disabled'), 200);
    await checkFeature('searchVisibility', owner, tid, disabled);
  });

  forAccess('SearchVisibilityInbound.testSearchVisibilityInboundInternal', async (access) => {
    const { owner, tid } = await createTeam(own, 2);
    const eve = await randomUser(own);
    expectForbidden(await as(eve).get(`/teams/${tid}/features/searchVisibilityInbound`));
    await checkFeature('searchVisibilityInbound', owner, tid, disabled);
    const ws = await userSocket(owner);
    try {
      await setFlag(access, ws, owner, tid, 'searchVisibilityInbound', enabled);
      await setFlag(access, ws, owner, tid, 'searchVisibilityInbound', disabled);
    } finally {
      await ws.close();
    }
  });

  const sdm = (status: string, timeout: unknown) => ({
    status,
    ttl: 'unlimited',
    config: { enforcedTimeoutSeconds: timeout },
  });
  forAccess('SelfDeletingMessages.testSelfDeletingMessages', (access) =>
    run(access, 'selfDeletingMessages', [sdm('disabled', 0), sdm('enabled', 30)], [sdm('enabled', '')]),
  );
  it('SelfDeletingMessages.testPatchSelfDeletingMessages', async () => {
    await patch('selfDeletingMessages', { lockStatus: 'locked' });
    await patch('selfDeletingMessages', { status: 'disabled' });
    await patch('selfDeletingMessages', { lockStatus: 'locked', status: 'disabled' });
    await patch('selfDeletingMessages', { lockStatus: 'unlocked', config: { enforcedTimeoutSeconds: 30 } });
    await patch('selfDeletingMessages', { config: { enforcedTimeoutSeconds: 60 } });
  });

  it('SndFactorPasswordChallenge.testPatchSndFactorPasswordChallenge', () =>
    patch('sndFactorPasswordChallenge', enabled));
  forAccess('SndFactorPasswordChallenge.testSndFactorPasswordChallenge', (access) =>
    run(access, 'sndFactorPasswordChallenge', [enabled, disabled]),
  );

  it('ClassifiedDomains.testClassifiedDomainsDisabled', async () => {
    // the shipped configuration has classifiedDomains disabled (with no domains)
    const { tid, members } = await createTeam(own, 2);
    await checkFeature('classifiedDomains', members[0]!, tid, { ...disabled, config: { domains: [] } });
  });

  // wire's configs also carry groupInfoDiagnostics, a field newer than this backend's API (v8, v9)
  const mlsConfig = (o: Record<string, unknown>) => ({
    protocolToggleUsers: [],
    defaultProtocol: 'mls',
    supportedProtocols: ['proteus', 'mls'],
    allowedCipherSuites: [1],
    defaultCipherSuite: 1,
    ...o,
  });
  forAccess('Mls.testMls', async (access) => {
    const user = await randomUser(own);
    await run(
      access,
      'mls',
      [
        { status: 'enabled', config: mlsConfig({ protocolToggleUsers: [user.id] }) },
        { status: 'enabled', config: mlsConfig({ supportedProtocols: ['mls'] }) },
      ],
      [{ status: 'enabled', config: mlsConfig({ supportedProtocols: ['proteus'] }) }],
    );
  });
  it('Mls.testMlsPatch', async () => {
    // the scenario's backend keeps mlsMigration locked and disabled, as the shipped configuration does
    await patch('mls', { lockStatus: 'locked' });
    await patch('mls', { status: 'enabled' });
    await patch('mls', { lockStatus: 'locked', status: 'enabled' });
    await patch('mls', { status: 'enabled', config: mlsConfig({}) });
    await patch('mls', { config: mlsConfig({}) });
  });

  forAccess('MlsMigration.testMlsMigration', async (access) => {
    const { owner, tid } = await createTeam(own);
    const mlsEnable = {
      status: 'enabled',
      config: {
        protocolToggleUsers: [],
        defaultProtocol: 'mls',
        supportedProtocols: ['mls'],
        allowedCipherSuites: [1],
        defaultCipherSuite: 1,
      },
    };
    expectStatus(await as(owner).put(`/teams/${tid}/features/mls`, mlsEnable), 200);
    const migration = (start: string, end: string) => ({
      status: 'enabled',
      config: { startTime: start, finaliseRegardlessAfter: end },
    });
    await run(
      access,
      'mlsMigration',
      [
        migration('2029-05-16T10:11:12.123Z', '2030-10-17T00:00:00Z'),
        migration('2030-05-16T10:11:12.123Z', '2031-10-17T00:00:00Z'),
      ],
      [],
      owner,
    );
  });

  const e2ei = (o: { crlProxy?: unknown; verificationExpiration?: number; useProxyOnMobile?: boolean } = {}) => ({
    status: 'enabled',
    config: { crlProxy: 'https://example.com', verificationExpiration: 86400, useProxyOnMobile: false, ...o },
  });
  forAccess('MlsE2EId.testMLSE2EId', (access) => {
    const invalid =
      access === 'internal'
        ? e2ei({ crlProxy: {} })
        : { status: 'enabled', config: { verificationExpiration: 86400, useProxyOnMobile: false } };
    return run(
      access,
      'mlsE2EId',
      [e2ei(), e2ei({ verificationExpiration: 86401, useProxyOnMobile: true })],
      [invalid],
    );
  });
  it('MlsE2EId.testPatchE2EId', async () => {
    const config = { crlProxy: 'https://example.com', verificationExpiration: 86401, useProxyOnMobile: true };
    await patch('mlsE2EId', { lockStatus: 'locked' });
    await patch('mlsE2EId', { status: 'enabled' });
    await patch('mlsE2EId', { lockStatus: 'locked', status: 'enabled' });
    await patch('mlsE2EId', { lockStatus: 'unlocked', config });
    await patch('mlsE2EId', { config });
  });
  it('MlsE2EId.testMlsE2EConfigCrlProxyRequired', async () => {
    const { owner, tid } = await createTeam(own);
    const without = { status: 'enabled', config: { useProxyOnMobile: false, verificationExpiration: 86400 } };
    expectError(await as(owner).put(`/teams/${tid}/features/mlsE2EId`, without), 400, 'mls-e2eid-missing-crl-proxy');
    const withProxy = {
      status: 'enabled',
      config: { useProxyOnMobile: true, verificationExpiration: 86400, crlProxy: 'https://crl-proxy.example.com' },
    };
    expectStatus(await as(owner).put(`/teams/${tid}/features/mlsE2EId`, withProxy), 200);
    await checkFeature('mlsE2EId', owner, tid, { ...withProxy, lockStatus: 'unlocked', ttl: 'unlimited' });
  });
  it('MlsE2EId.testMlsE2EConfigCrlProxyNotRequiredInV5', async () => {
    const { owner, tid } = await createTeam(own);
    const without = { status: 'enabled', config: { useProxyOnMobile: false, verificationExpiration: 86400 } };
    expectStatus(await as(owner, 5).put(`/teams/${tid}/features/mlsE2EId`, without), 200);
    // the shipped configuration names no default crlProxy, so none is filled in
    await checkFeature('mlsE2EId', owner, tid, { ...without, lockStatus: 'unlocked', ttl: 'unlimited' });
  });

  const channels = (open: string) => ({
    status: 'enabled',
    config: { allowed_to_create_channels: 'everyone', allowed_to_open_channels: open },
  });
  forAccess('Channels.testChannels', (access) =>
    run(access, 'channels', [channels('everyone')], [channels('INVALID')]),
  );
  it('Channels.testPatchChannels', async () => {
    await patch('channels', { lockStatus: 'locked' });
    await patch('channels', { status: 'disabled' });
    await patch('channels', { lockStatus: 'locked', status: 'disabled' });
    await patch('channels', {
      lockStatus: 'unlocked',
      config: { allowed_to_create_channels: 'admins', allowed_to_open_channels: 'everyone' },
    });
  });

  it('DomainRegistration.testPatchDomainRegistration', () => patch('domainRegistration', enabled));
  it('DomainRegistration.testDomainRegistrationInternal', () =>
    internalFlags('domainRegistration', [enabled, disabled], true));

  it('EnforceFileDownloadLocation.testPatchEnforceFileDownloadLocation', async () => {
    await patch('enforceFileDownloadLocation', { lockStatus: 'unlocked' });
    await patch('enforceFileDownloadLocation', { status: 'enabled' });
    await patch('enforceFileDownloadLocation', { lockStatus: 'unlocked', status: 'enabled' });
    await patch('enforceFileDownloadLocation', { lockStatus: 'locked', config: {} });
    await patch('enforceFileDownloadLocation', { config: { enforcedDownloadLocation: '/tmp' } });
    const { tid } = await createTeam(own);
    expectError(
      await patchFeature(own, tid, 'enforceFileDownloadLocation', { config: { enforcedDownloadLocation: '' } }),
      400,
      'empty-download-location',
    );
  });
  forAccess('EnforceFileDownloadLocation.testEnforceDownloadLocation', (access) =>
    run(
      access,
      'enforceFileDownloadLocation',
      [
        { status: 'enabled', config: { enforcedDownloadLocation: '/tmp' } },
        { status: 'disabled', config: {} },
      ],
      [{ status: 'enabled', config: { enforcedDownloadLocation: {} } }],
    ),
  );

  it('DigitalSignatures.testPatchDigitalSignatures', () => patch('digitalSignatures', enabled));
  // unlocked first: the shipped configuration locks digitalSignatures (wire's test configuration does not)
  it('DigitalSignatures.testDigitalSignaturesInternal', () =>
    internalFlags('digitalSignatures', [disabled, enabled], true));

  it('OutlookCalIntegration.testPatchOutlookCalIntegration', () => patch('outlookCalIntegration', enabled));
  forAccess('OutlookCalIntegration.testOutlookCalIntegration', (access) =>
    run(access, 'outlookCalIntegration', [enabled, disabled]),
  );

  it('RequireExternalEmailVerification.testPatchRequireExternalEmailVerification', () =>
    patch('validateSAMLemails', { status: 'disabled' }));
  it('RequireExternalEmailVerification.testRequireExternalEmailVerification', () =>
    internalFlags('validateSAMLemails', [disabled, enabled]));

  for (const how of ['put', 'patch'] as const)
    it(`LegalHold.testLegalholdDisabledByDefault[${how}]`, async () => {
      // the shipped configuration has legalhold: disabled-by-default, as the scenario sets
      const { owner, tid, members } = await createTeam(own, 2);
      const nonMember = await randomUser(own);
      expectForbidden(await as(nonMember).get(`/teams/${tid}/features/legalhold`));
      await checkFeature('legalhold', members[0]!, tid, disabled);
      const set = (status: string) =>
        how === 'put'
          ? putFeatureInternal(own, tid, 'legalhold', { status })
          : setFeatureStatus(own, tid, 'legalhold', status);
      expectStatus(await set('enabled'), 200);
      await checkFeature('legalhold', owner, tid, enabled);
      expectStatus(await set('disabled'), 200);
      await checkFeature('legalhold', owner, tid, disabled);
    });
});

/**
 * Scenarios whose backend has other feature defaults: sso and team search visibility enabled by
 * default, classifiedDomains enabled for example.com, and mlsMigration unlocked with wire's test
 * configuration; its persistent cookies last 2 s (Auth.testInvalidCookie, which shares it).
 */
describe('FeatureFlags on a backend with other defaults', () => {
  let backend: TestBackend;
  let b: Backend;
  const migrationConfig = { startTime: '2029-05-16T10:11:12.123Z', finaliseRegardlessAfter: '2029-10-17T00:00:00Z' };
  beforeAll(async () => {
    backend = await startEditedBackend([
      ['galley.yaml', ['settings', 'featureFlags', 'sso'], 'enabled-by-default'],
      ['galley.yaml', ['settings', 'featureFlags', 'teamSearchVisibility'], 'enabled-by-default'],
      [
        'galley.yaml',
        ['settings', 'featureFlags', 'classifiedDomains'],
        { status: 'enabled', config: { domains: ['example.com'] } },
      ],
      [
        'galley.yaml',
        ['settings', 'featureFlags', 'mlsMigration'],
        { defaults: { status: 'enabled', lockStatus: 'unlocked', config: migrationConfig } },
      ],
      ['brig.yaml', ['zauth', 'userTokenTimeout'], 2],
    ]);
    b = { publicUrl: backend.publicUrl, internalUrl: backend.internalUrl, domain: 'example.com' };
  });
  afterAll(() => backend?.stop());

  it('SSO.testSSOEnabledByDefault', async () => {
    const { owner, tid } = await createTeam(b, 2);
    const nonMember = await randomUser(b);
    expectForbidden(await as(nonMember).get(`/teams/${tid}/features/sso`));
    await checkFeature('sso', owner, tid, enabled);
    expectError(await putFeatureInternal(b, tid, 'sso', { status: 'disabled' }), 403, 'not-implemented');
  });

  it('SearchVisibilityAvailable.testSearchVisibilityEnabledByDefault', async () => {
    const { owner, tid, members } = await createTeam(b, 2);
    const nonMember = await randomUser(b);
    expectForbidden(await as(nonMember).get(`/teams/${tid}/features/searchVisibility`));
    await checkFeature('searchVisibility', members[0]!, tid, enabled);
    expectStatus(await setFeatureStatus(b, tid, 'searchVisibility', 'disabled'), 200);
    await checkFeature('searchVisibility', owner, tid, disabled);
    expectStatus(await setFeatureStatus(b, tid, 'searchVisibility', 'enabled'), 200);
    await checkFeature('searchVisibility', owner, tid, enabled);
  });

  it('ClassifiedDomains.testClassifiedDomainsEnabled', async () => {
    const { tid, members } = await createTeam(b, 2);
    await checkFeature('classifiedDomains', members[0]!, tid, { ...enabled, config: { domains: ['example.com'] } });
  });

  it('MlsMigration.testMlsMigrationDefaults', async () => {
    const { tid } = await createTeam(b);
    expectStatus(await patchFeature(b, tid, 'mls', { status: 'enabled' }), 200);
    const feat = await getFeatureInternal(b, tid, 'mlsMigration');
    expectStatus(feat, 200);
    expect(feat.body.config).toEqual(migrationConfig);
  });

  // wire's scenario also expires a legal hold cookie (/i/legalhold-login), which this backend lacks;
  // the wait is the cookie's lifetime on this backend (nothing to await)
  it('Auth.testInvalidCookie', async () => {
    const bogus = await call(b.publicUrl, '/v8/access', { method: 'POST', headers: { cookie: 'zuid=xxx' } });
    expectError(bogus, 403, 'client-error');
    expect(bogus.body.message).toContain('Invalid zauth token');
    const { members } = await createTeam(b, 2);
    const login = await as(b).post('/login?persist=true', { email: members[0]!.email, password: members[0]!.password });
    expectStatus(login, 200);
    const cookie = /zuid=[^;]+/.exec(login.headers.get('set-cookie') ?? '')![0];
    await new Promise((r) => setTimeout(r, 4000));
    const expired = await call(b.publicUrl, '/v8/access', { method: 'POST', headers: { cookie } });
    expectError(expired, 403, 'invalid-credentials');
    expect(expired.body.message).toBe('Zauth token expired');
  });
});
