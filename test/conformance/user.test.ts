import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEditedBackend, type TestBackend } from '../helpers/backend.js';
import { call } from '../helpers/http.js';
import { cookieOf, uniqueEmail } from '../helpers/users.js';
import { getFeatureInternal, setFeatureStatus, setLockStatus } from './lib/identity-features.js';
import {
  as,
  type Backend,
  createTeam,
  expectError,
  expectStatus,
  internal,
  ownBackend,
  PASSWORD,
  randomId,
  randomUser,
  type User,
} from './lib/identity-users.js';
import { getSelf } from '../helpers/endpoints/brig.js';

const own = ownBackend();

const login = (b: Backend, email: string, password: string, extra: Record<string, unknown> = {}, persist = true) =>
  as(b).post(`/login${persist ? '?persist=true' : ''}`, { email, password, ...extra });
const access = (b: Backend, cookie: string) => call(b.publicUrl, '/v8/access', { method: 'POST', headers: { cookie } });
const supportedProtocols = (viewer: User, u: User) => as(viewer).get(`/users/${u.domain}/${u.id}/supported-protocols`);

/** A printable name of 8 to 20 characters (wire's random handles). */
const randomName = (min = 8, max = 20) => {
  const len = min + Math.floor(Math.random() * (max - min + 1));
  let s = '';
  while (s.length < len) s += Math.random().toString(36).slice(2);
  return s.slice(0, len);
};
const randomJson = () =>
  [
    () => Math.floor(Math.random() * 1000),
    () => randomName(),
    () => ({ a: randomName(), b: [1, 2, { c: true }] }),
    () => [randomName(), null, false],
  ][Math.floor(Math.random() * 4)]!();

describe('User', () => {
  it('User.testSupportedProtocols[OwnDomain]', async () => {
    const alice = await randomUser(own);
    expect((await as(alice).get('/self')).body.supported_protocols).toEqual(['proteus']);
    const bob = await randomUser(own);
    expect((await as(bob).get(`/users/${alice.domain}/${alice.id}`)).body.supported_protocols).toEqual(['proteus']);
    expect((await supportedProtocols(bob, alice)).body).toEqual(['proteus']);
    expectStatus(await as(alice).put('/self/supported-protocols', { supported_protocols: ['proteus', 'mls'] }), 200);
    expect(new Set((await as(bob).get(`/users/${alice.domain}/${alice.id}`)).body.supported_protocols)).toEqual(
      new Set(['proteus', 'mls']),
    );
    expect((await supportedProtocols(bob, alice)).body).toEqual(['proteus', 'mls']);
    const invalid = await as(alice).put('/self/supported-protocols', {
      supported_protocols: ['proteus', 'mls', 'mixed'],
    });
    expectError(invalid, 400, 'bad-request');
  });

  it('User.testCreateUserSupportedProtocols', async () => {
    const alice = await randomUser(own, { supportedProtocols: ['proteus', 'mls'] });
    const r = await supportedProtocols(alice, alice);
    expectStatus(r, 200);
    expect(new Set(r.body)).toEqual(new Set(['proteus', 'mls']));
    const bad = await internal(own).post('/i/users', {
      name: 'x',
      email: uniqueEmail(),
      password: PASSWORD,
      supported_protocols: ['proteus', 'mixed'],
    });
    expectError(bad, 400, 'bad-request');
  });

  it('User.testRemoveMlsSupportShouldFail', async () => {
    const alice = await randomUser(own, { supportedProtocols: ['proteus', 'mls'] });
    expect(new Set((await supportedProtocols(alice, alice)).body)).toEqual(new Set(['proteus', 'mls']));
    expectError(
      await as(alice).put('/self/supported-protocols', { supported_protocols: ['proteus'] }),
      409,
      'mls-protocol-error',
    );
    const after = await supportedProtocols(alice, alice);
    expectStatus(after, 200);
    expect(new Set(after.body)).toEqual(new Set(['proteus', 'mls']));
  });

  it('User.testUpdateHandle', async () => {
    const { owner, tid, members } = await createTeam(own, 2);
    const mem1 = members[0]!;
    expect((await getFeatureInternal(own, tid, 'mlsE2EId')).body.status).toBe('disabled');
    expectStatus(await setFeatureStatus(own, tid, 'mlsE2EId', 'enabled'), 200);
    expect((await getFeatureInternal(own, tid, 'mlsE2EId')).body.status).toBe('enabled');
    expect((await as(mem1).get('/self')).body.managed_by).toBe('wire');
    const byId = await internal(own).get(`/i/users?ids=${mem1.id}`);
    expectStatus(byId, 200);
    expect(byId.body.map((u: any) => u.managed_by)).toEqual(['wire']);
    const handle = randomId();
    expectStatus(await as(mem1).put('/self/handle', { handle }), 200);
    expectStatus(await as(mem1).put('/self/handle', { handle }), 200);
    expectError(await as(mem1).put('/self/handle', { handle: randomId() }), 403, 'managed-by-scim');
    expect((await as(mem1).get('/self')).body.managed_by).toBe('scim');
    expect((await internal(own).get(`/i/users?ids=${mem1.id}`)).body.map((u: any) => u.managed_by)).toEqual(['wire']);
    const tokens = await as(owner).get('/scim/auth-tokens');
    expectStatus(tokens, 200);
    expect(tokens.body.tokens).toEqual([]);
  });

  const e2eiTeam = async () => {
    const team = await createTeam(own, 2);
    expect((await getFeatureInternal(own, team.tid, 'mlsE2EId')).body.status).toBe('disabled');
    expectStatus(await setFeatureStatus(own, team.tid, 'mlsE2EId', 'enabled'), 200);
    expect((await getFeatureInternal(own, team.tid, 'mlsE2EId')).body.status).toBe('enabled');
    return team;
  };

  it('User.testUpdateSelf[mode=TestUpdateDisplayName]', async () => {
    const { members } = await e2eiTeam();
    const mem1 = members[0]!;
    const before = (await as(mem1).get('/self')).body.name;
    expectError(await as(mem1).put('/self', { name: randomId() }), 403, 'managed-by-scim');
    expect((await as(mem1).get('/self')).body.name).toBe(before);
  });

  it('User.testUpdateSelf[mode=TestUpdateEmailAddress]', async () => {
    const { owner } = await e2eiTeam();
    expectStatus(await as(owner).put(`/users/${owner.id}/email`, { email: `${randomId()}@example.com` }), 200);
  });

  it('User.testUpdateSelf[mode=TestUpdateLocale]', async () => {
    const { members } = await e2eiTeam();
    for (const locale of ['uk', 'he']) expectStatus(await as(members[0]!).put('/self/locale', { locale }), 200);
  });

  it('User.testActivateAccountWithPhoneV5', async () => {
    expectError(await as(own, 5).post('/activate', { phone: '+4912345678' }), 400, 'bad-request');
  });

  it('User.testPasswordChange', async () => {
    const user = await randomUser(own);
    const newPassword = randomName(20, 20);
    const change = (old_password: string, new_password: string) =>
      as(user).put('/self/password', { old_password, new_password });
    expectError(await change(PASSWORD, PASSWORD), 409, 'password-must-differ');
    expectStatus(await change(PASSWORD, newPassword), 200);
    expectError(await login(own, user.email, PASSWORD), 403, 'invalid-credentials');
    expectStatus(await login(own, user.email, newPassword), 200);
  });

  it('User.testEphemeralUserCreation[ephemeral-user-creation-enabled=True]', async () => {
    expectStatus(await as(own).post('/register', { name: 'ephemeral' }), 201);
    expectStatus(await as(own).post('/register', { name: 'x', email: uniqueEmail(), password: PASSWORD }), 201);
  });

  it('User.testSuspendNonExistingUser', async () => {
    const existing = await randomUser(own);
    const uid = randomId();
    expectStatus(await internal(own).put(`/i/users/${uid}/status`, { status: 'suspended' }), 404);
    expectStatus(await as(existing).get(`/users/${own.domain}/${uid}`), 404);
  });
});

describe('B2B', () => {
  it('B2B.testConnectUsers', async () => {
    const alice = await randomUser(own);
    expect((await as(alice).get('/self')).body.id).toBe(alice.id);
  });
});

describe('Brig', () => {
  it('Brig.testCrudFederationRemoteTeams', async () => {
    const [{ tid }, { tid: tid2 }] = await Promise.all([createTeam(own, 1), createTeam(own, 1)]);
    const rd = `${randomName()}.wire.com`;
    const teams = async () => {
      const r = await internal(own).get(`/i/federation/remotes/${rd}/teams`);
      expectStatus(r, 200);
      return r.body.map((t: any) => t.team_id);
    };
    const add = (team: string) => internal(own).post(`/i/federation/remotes/${rd}/teams`, { team_id: team });
    expectStatus(await add(tid), 533);
    const remote = { domain: rd, search_policy: 'full_search' };
    expectStatus(await internal(own).post('/i/federation/remotes', remote), 200);
    expectStatus(await add(tid), 533);
    const restricted = { ...remote, restriction: { tag: 'restrict_by_team', value: [] } };
    expectStatus(await internal(own).put(`/i/federation/remotes/${rd}`, restricted), 200);
    expect(await teams()).toEqual([]);
    expectStatus(await add(tid), 200);
    expect(await teams()).toEqual([tid]);
    expectStatus(await add(tid2), 200);
    expect(new Set(await teams())).toEqual(new Set([tid, tid2]));
    expectStatus(await internal(own).del(`/i/federation/remotes/${rd}/teams/${tid}`), 200);
    expect(await teams()).toEqual([tid2]);
    expectStatus(await internal(own).del(`/i/federation/remotes/${rd}/teams/${tid2}`), 200);
    expect(await teams()).toEqual([]);
  });
});

describe('PasswordReset', () => {
  const resetData = async (email: string) => {
    const r = await internal(own).get(`/i/users/password-reset-code?email=${encodeURIComponent(email)}`);
    expectStatus(r, 200);
    return { key: r.body.key as string, code: r.body.code as string };
  };
  const reset = (email: string) => as(own).post('/password-reset', { email });
  const complete = (key: string, code: string, password: string) =>
    as(own).post('/password-reset/complete', { key, code, password });

  it('PasswordReset.testPasswordResetShouldSucceedButFailOnWrongInputs', async () => {
    const u = await randomUser(own);
    expectStatus(await reset(u.email), 201);
    expectStatus(await reset(u.email), 201);
    const { key, code } = await resetData(u.email);
    const newPassword = 'newpassword';
    expectStatus(await complete('wrong-key', code, newPassword), 400);
    expectStatus(await login(own, u.email, newPassword), 403);
    expectStatus(await complete(key, 'wrong-code', newPassword), 400);
    expectStatus(await login(own, u.email, newPassword), 403);
    expectStatus(await complete(key, code, newPassword), 200);
    expectStatus(await login(own, u.email, PASSWORD), 403);
    expectStatus(await login(own, u.email, newPassword), 200);
    expectStatus(await reset(u.email), 201);
    const next = await resetData(u.email);
    expectError(await complete(next.key, next.code, newPassword), 409, 'password-must-differ');
  });

  it('PasswordReset.testPasswordResetAfterEmailUpdate', async () => {
    const u = await randomUser(own);
    const newEmail = uniqueEmail();
    const update = await call(own.publicUrl, '/v8/access/self/email', {
      method: 'PUT',
      headers: { cookie: u.cookie, authorization: `Bearer ${u.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: newEmail }),
    });
    expect(update.status, update.text).toBeLessThan(300);
    expectStatus(await reset(u.email), 201);
    const { key, code } = await resetData(u.email);
    const activation = await internal(own).get(`/i/users/activation-code?email=${encodeURIComponent(newEmail)}`);
    expectStatus(activation, 200);
    const activated = await as(own).get(`/activate?key=${activation.body.key}&code=${activation.body.code}`);
    expect(activated.status, activated.text).toBeLessThan(300);
    expect((await as(u).get('/self')).body.email).toBe(newEmail);
    expectError(await complete(key, code, 'newpassword'), 400, 'invalid-code');
  });

  it('PasswordReset.testPasswordResetInvalidPasswordLength', async () => {
    const u = await randomUser(own);
    expectStatus(await reset(u.email), 201);
    const { key, code } = await resetData(u.email);
    expectStatus(await complete(key, code, '123456'), 400);
    expectStatus(await login(own, u.email, '123456'), 403);
  });
});

const set = (u: User, key: string, value: unknown) => as(u).put(`/properties/${encodeURIComponent(key)}`, value);
const many = (n: number) => Array.from({ length: n }, () => [randomName(), randomJson()] as const);
const setAll = async (u: User, props: ReadonlyArray<readonly [string, unknown]>) => {
  for (const [k, v] of props) expectStatus(await set(u, k, v), 200);
};

describe('Property', () => {
  it('Property.testSetGetDeleteProperty', async () => {
    const user = await randomUser(own);
    expectStatus(await set(user, 'foo', 'bar'), 200);
    const got = await as(user).get('/properties/foo');
    expectStatus(got, 200);
    expect(got.body).toBe('bar');
    expectStatus(await as(user).del('/properties/foo'), 200);
    expectStatus(await as(user).get('/properties/foo'), 404);
  });

  it('Property.testGetProperties', async () => {
    const user = await randomUser(own);
    const props = many(16);
    await setAll(user, props);
    const names = await as(user).get('/properties');
    expectStatus(names, 200);
    expect(new Set(names.body)).toEqual(new Set(props.map(([k]) => k)));
    const values = await as(user).get('/properties-values');
    expectStatus(values, 200);
    expect(values.body).toEqual(Object.fromEntries(props));
  });

  it('Property.testClearProperties', async () => {
    const user = await randomUser(own);
    await setAll(user, many(16));
    expectStatus(await as(user).del('/properties'), 200);
    expect((await as(user).get('/properties')).body).toEqual([]);
    expect((await as(user).get('/properties-values')).body).toEqual({});
  });

  it('Property.testMaxProperties', async () => {
    const user = await randomUser(own);
    const props = many(16);
    await setAll(user, props);
    expectError(await set(user, randomName(), randomJson()), 403, 'too-many-properties');
    expect((await as(user).get('/properties-values')).body).toEqual(Object.fromEntries(props));
    const updated = props.map(([k]) => [k, randomJson()] as const);
    await setAll(user, updated);
    expect((await as(user).get('/properties-values')).body).toEqual(Object.fromEntries(updated));
  });

  it('Property.testPropertyNameNotAscii', async () => {
    const user = await randomUser(own);
    expectStatus(await set(user, 'döner', 'yes'), 400);
  });
});

describe('Auth', () => {
  it('Auth.testBearerToken2', async () => {
    const alice = await randomUser(own);
    const r = await login(own, alice.email, PASSWORD);
    expectStatus(r, 200);
    const self = await getSelf(own.publicUrl, r.body.access_token);
    expectStatus(self, 200);
    expect(self.body.email).toBe(alice.email);
  });

  it('Auth.testAWS4_HMAC_SHA256_token2', async () => {
    const alice = await randomUser(own);
    const token = (await login(own, alice.email, PASSWORD)).body.access_token;
    const cases: Array<[boolean, string]> = [
      [true, `AWS4-HMAC-SHA256 Credential=${token}, foo=bar`],
      [true, `AWS4-HMAC-SHA256 Credential=${token}`],
      [true, `AWS4-HMAC-SHA256 foo=bar, Credential=${token}`],
      [true, `AWS4-HMAC-SHA256 foo=bar, Credential=${token}, baz=qux`],
      [true, `AWS4-HMAC-SHA256 foo=bar,Credential=${token},baz=qux`],
      [false, 'AWS4-HMAC-SHA256 Credential=badtoken'],
    ];
    for (const [good, header] of cases) {
      const r = await call(own.publicUrl, '/v8/self', { headers: { authorization: header } });
      if (good) {
        expect(r.status, header).toBe(200);
        expect(r.body.email).toBe(alice.email);
      } else expect(r.status, header).toBe(401);
    }
  });
});

const sndFactorOwner = async (b: Backend) => {
  const { owner, tid } = await createTeam(b, 1);
  await setLockStatus(b, tid, 'sndFactorPasswordChallenge', 'unlocked');
  expectStatus(await setFeatureStatus(b, tid, 'sndFactorPasswordChallenge', 'enabled'), 200);
  return { owner, tid };
};
const sendCode = (b: Backend, email: string) => as(b).post('/verification-code/send', { action: 'login', email });
const codeOf = async (u: User) => {
  const r = await internal(u).get(`/i/users/${u.id}/verification-code/login`);
  expectStatus(r, 200);
  return r.body as string;
};
const wrong = (code: string) => String((Number(code) + 1) % 1000000).padStart(6, '0');
const with2fa = (u: User, code: string) => login(u.backend, u.email, PASSWORD, { verification_code: code });

describe('Login (second factor)', () => {
  it('Login.testLoginVerify6DigitEmailCodeSuccess', async () => {
    const { owner } = await sndFactorOwner(own);
    expectStatus(await sendCode(own, owner.email), 200);
    expectStatus(await with2fa(owner, await codeOf(owner)), 200);
  });

  it('Login.testLoginVerify6DigitWrongCodeFails', async () => {
    const { owner } = await sndFactorOwner(own);
    expectStatus(await sendCode(own, owner.email), 200);
    expectError(await with2fa(owner, wrong(await codeOf(owner))), 403, 'code-authentication-failed');
  });

  it('Login.testLoginVerify6DigitMissingCodeFails', async () => {
    const { owner } = await sndFactorOwner(own);
    expectError(await login(own, owner.email, PASSWORD), 403, 'code-authentication-required');
  });

  it('Login.testLoginVerify6DigitLimitRetries', async () => {
    const { owner } = await sndFactorOwner(own);
    expectStatus(await sendCode(own, owner.email), 200);
    const correct = await codeOf(owner);
    for (let i = 0; i < 3; i++) expectError(await with2fa(owner, wrong(correct)), 403, 'code-authentication-failed');
    expectError(await with2fa(owner, correct), 403, 'code-authentication-failed');
  });
});

/**
 * Scenarios that run against a backend with wire's test settings for them: failed logins
 * throttled after 5 for 5 s, 5 cookies per type without throttling, second-factor codes valid
 * for 2 s and sent at most every 5 s, no ephemeral users, small properties, and remotes only in
 * its (fresh) database.
 */
describe('on a backend with tight limits', () => {
  let tuned: TestBackend;
  let b: Backend;
  beforeAll(async () => {
    tuned = await startEditedBackend([
      ['brig.yaml', ['optSettings', 'setLimitFailedLogins'], { timeout: 5, retryLimit: 5 }],
      ['brig.yaml', ['optSettings', 'setUserCookieLimit'], 5],
      ['brig.yaml', ['optSettings', 'setUserCookieThrottle'], { stdDev: 3000, retryAfter: 0 }],
      ['brig.yaml', ['optSettings', 'setVerificationTimeout'], 2],
      ['brig.yaml', ['optSettings', 'setEphemeralUserCreationEnabled'], false],
      ['brig.yaml', ['optSettings', 'setPasswordHashingRateLimit', 'userLimit'], { burst: 20, inverseRate: 0 }],
      ['brig.yaml', ['optSettings', 'set2FACodeGenerationDelaySecs'], 5],
      ['brig.yaml', ['optSettings', 'setPropertyMaxKeyLen'], 64],
      ['brig.yaml', ['optSettings', 'setPropertyMaxValueLen'], 1024],
      ['brig.yaml', ['optSettings', 'setFederationStrategy'], 'allowDynamic'],
      ['brig.yaml', ['optSettings', 'setFederationDomainConfigs'], []],
    ]);
    b = { publicUrl: tuned.publicUrl, internalUrl: tuned.internalUrl, domain: 'example.com' };
  });
  afterAll(() => tuned?.stop());

  it('Property.testMaxLength', async () => {
    const user = await randomUser(b);
    // wire's test talks to brig directly; here nginz (512k bodies) is in front, so this backend's
    // limits are small enough to reach brig's own check, and the test reads them as wire's does.
    const maxKey = 64;
    const maxValue = 1024;
    const okKey = randomName(maxKey, maxKey);
    const okValue = randomName(maxValue - 2, maxValue - 2);
    expectError(await set(user, randomName(maxKey + 1, maxKey + 1), okValue), 403, 'property-key-too-large');
    expectError(await set(user, okKey, randomName(maxValue - 1, maxValue - 1)), 403, 'property-value-too-large');
    expectStatus(await set(user, okKey, okValue), 200);
    const got = await as(user).get(`/properties/${okKey}`);
    expectStatus(got, 200);
    expect(got.body).toBe(okValue);
  });
  it('Login.testLoginVerify6DigitResendCodeSuccessAndRateLimiting', async () => {
    const { owner } = await sndFactorOwner(b);
    expectStatus(await sendCode(b, owner.email), 200);
    const first = await codeOf(owner);
    expectStatus(await sendCode(b, owner.email), 429);
    // wire retries until the rate limit lets a new code out
    let latest = first;
    const until = Date.now() + 30_000;
    for (;;) {
      const r = await sendCode(b, owner.email);
      if (r.status === 200) {
        latest = await codeOf(owner);
        break;
      }
      expect(Date.now() < until, 'no new code within 30 s').toBe(true);
      await new Promise((res) => setTimeout(res, 1000));
    }
    expectError(await with2fa(owner, first), 403, 'code-authentication-failed');
    expectStatus(await with2fa(owner, latest), 200);
  });

  it('Auth.testLimitRetries', async () => {
    const [alice, bob] = await Promise.all([randomUser(b), randomUser(b)]);
    for (let i = 0; i < 5; i++) expectError(await login(b, alice.email, 'wrong-password'), 403, 'invalid-credentials');
    const blocked = await login(b, alice.email, PASSWORD);
    expectError(blocked, 403, 'client-error');
    const retryAfter = Number(blocked.headers.get('retry-after'));
    expect(retryAfter).toBeLessThanOrEqual(5);
    expectStatus(await login(b, bob.email, PASSWORD), 200);
    await new Promise((r) => setTimeout(r, (retryAfter - 2) * 1000));
    const still = await login(b, alice.email, PASSWORD);
    expectError(still, 403, 'client-error');
    expect(Number(still.headers.get('retry-after'))).toBeLessThanOrEqual(2);
    await new Promise((r) => setTimeout(r, 2000));
    expectStatus(await login(b, alice.email, PASSWORD), 200);
  });

  it('Auth.testTooManyCookies', async () => {
    const alice = await randomUser(b);
    const limit = 5;
    const testLimit = async (persist: boolean) => {
      const cookies: string[] = [];
      for (let i = 0; i < limit + 2; i++) {
        const r = await login(b, alice.email, PASSWORD, {}, persist);
        expectStatus(r, 200);
        cookies.push(cookieOf(r));
      }
      for (const gone of cookies.slice(0, 2)) expectStatus(await access(b, gone), 403);
      for (const valid of cookies.slice(2)) expectStatus(await access(b, valid), 200);
    };
    // alice's own login made one persistent cookie before: it is among the evicted ones
    await Promise.all([testLimit(true), testLimit(false)]);
  });

  it('Login.testLoginVerify6DigitExpiredCodeFails', async () => {
    const { owner, tid } = await createTeam(b, 1);
    await setLockStatus(b, tid, 'sndFactorPasswordChallenge', 'unlocked');
    expectStatus(await setFeatureStatus(b, tid, 'sndFactorPasswordChallenge', 'enabled'), 200);
    expect((await getFeatureInternal(b, tid, 'sndFactorPasswordChallenge')).body.status).toBe('enabled');
    expectStatus(await as(b).post('/verification-code/send', { action: 'login', email: owner.email }), 200);
    const code = (await internal(b).get(`/i/users/${owner.id}/verification-code/login`)).body;
    await new Promise((r) => setTimeout(r, 2100));
    expectError(await login(b, owner.email, PASSWORD, { verification_code: code }), 403, 'code-authentication-failed');
  });

  it('User.testEphemeralUserCreation[ephemeral-user-creation-enabled=False]', async () => {
    expectError(await as(b).post('/register', { name: 'ephemeral' }), 403, 'ephemeral-user-creation-disabled');
    expectStatus(await as(b).post('/register', { name: 'x', email: 'user@example.com', password: PASSWORD }), 201);
  });

  it('Brig.testCrudFederationRemotes', async () => {
    const remotes = async () => {
      const r = await internal(b).get('/i/federation/remotes');
      expectStatus(r, 200);
      return r.body.remotes;
    };
    const sorted = (xs: any[]) => [...xs].sort((x, y) => x.domain.localeCompare(y.domain));
    const configured = {
      domain: 'b.example.com',
      search_policy: 'full_search',
      restriction: { tag: 'allow_all', value: null },
    };
    const dom1 = `${randomId()}.example.com`;
    const remote1 = { domain: dom1, search_policy: 'no_search', restriction: { tag: 'allow_all', value: null } };
    const remote1b = {
      domain: dom1,
      search_policy: 'full_search',
      restriction: { tag: 'restrict_by_team', value: [] },
    };
    expect(await remotes()).toEqual([]);
    expectStatus(await internal(b).post('/i/federation/remotes', configured), 200);
    expect(await remotes()).toEqual([configured]);
    expectStatus(await internal(b).post('/i/federation/remotes', remote1), 200);
    expect(sorted(await remotes())).toEqual(sorted([configured, remote1]));
    expectStatus(await internal(b).post('/i/federation/remotes', remote1), 200);
    expect(sorted(await remotes())).toEqual(sorted([configured, remote1]));
    expectStatus(await internal(b).put(`/i/federation/remotes/${dom1}`, remote1b), 200);
    expect(sorted(await remotes())).toEqual(sorted([configured, remote1b]));
  });
});
