import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEditedBackend, type TestBackend } from '../../helpers/backend.js';
import type { Edit } from '../../helpers/config-files.js';
import { call, wireError } from '../../helpers/http.js';
import { proteusKeys } from '../../helpers/prekeys.js';
import { api, cookieOf, uniqueEmail } from '../../helpers/users.js';
import {
  postAccess,
  postClient,
  postLogin,
  postRegister,
  postVerificationCodeSend,
  putProperty,
} from '../../helpers/endpoints/brig.js';

const B = 'brig.yaml';
const G = 'galley.yaml';
const opt = (key: string, value: unknown): Edit => [B, ['optSettings', key], value];
const password = 'secret-password';

/** Users made through the internal API (no codes, no rate limits). */
async function internalUser(b: TestBackend, extra: Record<string, unknown> = {}) {
  const email = uniqueEmail('limits');
  const r = await api(b.internalUrl).post('/i/users', { name: 'Limited', email, password, ...extra });
  expect(r.status, r.text).toBe(201);
  return { id: r.body.id as string, email, team: r.body.team as string | undefined };
}

describe('limits and switches of brig', () => {
  let b: TestBackend;
  beforeAll(async () => {
    b = await startEditedBackend([
      opt('setLimitFailedLogins', { timeout: 30, retryLimit: 2 }),
      opt('setUserCookieLimit', 2),
      opt('setUserCookieThrottle', { stdDev: 0, retryAfter: 0 }), // eviction without throttling (see cookie-throttle.test.ts)
      opt('setPropertyMaxValueLen', 64),
      [B, ['zauth', 'accessTokenTimeout'], 120],
      [B, ['optSettings', 'setPasswordHashingRateLimit', 'ipAddrLimit'], { burst: 1, inverseRate: 600000000 }],
      [B, ['optSettings', 'setPasswordHashingRateLimit', 'ipAddressExceptions'], []],
      [G, ['settings', 'featureFlags', 'sndFactorPasswordChallenge', 'defaults', 'status'], 'enabled'],
    ]);
  });
  afterAll(() => b?.stop());

  it('rate-limits password hashing per address, with Retry-After', async () => {
    expect((await postRegister(b.publicUrl, { name: 'First', email: uniqueEmail(), password })).status).toBe(201);
    const limited = await postRegister(b.publicUrl, { name: 'Second', email: uniqueEmail(), password });
    expect(limited).toMatchObject({ status: 429, body: wireError(429, 'too-many-requests') });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Nothing hashed, nothing written: users without a password are not limited.
    expect((await postRegister(b.publicUrl, { name: 'Guest' })).status).toBe(201);
  });

  it('blocks logins after too many failures, even with the right password', async () => {
    const u = await internalUser(b);
    for (let i = 0; i < 2; i++)
      expect((await postLogin(b.publicUrl, { email: u.email, password: 'wrong-password' })).status).toBe(403);
    const blocked = await postLogin(b.publicUrl, { email: u.email, password });
    expect(blocked).toMatchObject({ status: 403, body: wireError(403, 'client-error') });
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('evicts the oldest cookies beyond the per-user limit', async () => {
    const u = await internalUser(b);
    const cookies = [];
    for (let i = 0; i < 3; i++)
      cookies.push(cookieOf(await postLogin(b.publicUrl, { email: u.email, password }, { persist: true })));
    expect((await postAccess(b.publicUrl, undefined, cookies[0]!)).status).toBe(403);
    for (const cookie of cookies.slice(1)) expect((await postAccess(b.publicUrl, undefined, cookie)).status).toBe(200);
  });

  it('asks team members for a second factor when the team feature is on', async () => {
    const owner = await internalUser(b, { team: { name: 'Secure', icon: 'default' } });
    expect(await postLogin(b.publicUrl, { email: owner.email, password })).toMatchObject({
      status: 403,
      body: wireError(403, 'code-authentication-required'),
    });
    expect(
      (await postVerificationCodeSend(b.publicUrl, undefined, { action: 'login', email: owner.email })).status,
    ).toBe(200);
    const again = await postVerificationCodeSend(b.publicUrl, undefined, { action: 'login', email: owner.email });
    expect(again).toMatchObject({ status: 429, body: wireError(429, 'too-many-requests') });
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);
    const code = (await call(b.internalUrl, `/i/users/${owner.id}/verification-code/login`)).body as string;
    expect(code).toMatch(/^\d{6}$/);
    const wrong = code === '000000' ? '000001' : '000000';
    expect(await postLogin(b.publicUrl, { email: owner.email, password, verification_code: wrong })).toMatchObject({
      status: 403,
      body: wireError(403, 'code-authentication-failed'),
    });
    expect((await postLogin(b.publicUrl, { email: owner.email, password, verification_code: code })).status).toBe(200);
    // Personal users never need one; unknown addresses get the same 200.
    const personal = await internalUser(b);
    expect((await postLogin(b.publicUrl, { email: personal.email, password })).status).toBe(200);
    expect(
      (await postVerificationCodeSend(b.publicUrl, undefined, { action: 'login', email: 'nobody@example.com' })).status,
    ).toBe(200);
  });

  it('refuses property values beyond setPropertyMaxValueLen', async () => {
    const u = await internalUser(b);
    const token = (await postLogin(b.publicUrl, { email: u.email, password })).body.access_token;
    expect((await putProperty(b.publicUrl, token, 'fits', 'x'.repeat(62))).status).toBe(200); // 64 bytes with the quotes
    expect(await putProperty(b.publicUrl, token, 'big', 'x'.repeat(63))).toMatchObject({
      status: 403,
      body: wireError(403, 'property-value-too-large'),
    });
  });

  it('asks for the code when a team member adds a client, and a code survives only 3 wrong tries', async () => {
    const owner = await internalUser(b, { team: { name: 'Clients', icon: 'default' } });
    await postVerificationCodeSend(b.publicUrl, undefined, { action: 'login', email: owner.email });
    const code = (await call(b.internalUrl, `/i/users/${owner.id}/verification-code/login`)).body as string;
    const token = (await postLogin(b.publicUrl, { email: owner.email, password, verification_code: code })).body
      .access_token;
    const keys = await proteusKeys(1);
    expect(await postClient(b.publicUrl, token, { type: 'permanent', ...keys })).toMatchObject({
      status: 403,
      body: wireError(403, 'code-authentication-required'),
    });
    expect((await postClient(b.publicUrl, token, { type: 'permanent', ...keys, verification_code: code })).status).toBe(
      201,
    );

    const wrong = code === '000000' ? '000001' : '000000';
    for (let i = 0; i < 3; i++)
      expect(
        (await postClient(b.publicUrl, token, { type: 'temporary', ...keys, verification_code: wrong })).status,
      ).toBe(403);
    expect(await postClient(b.publicUrl, token, { type: 'temporary', ...keys, verification_code: code })).toMatchObject(
      {
        status: 403,
        body: wireError(403, 'code-authentication-failed'),
      },
    );
  });

  it('issues access tokens with the configured lifetime', async () => {
    const u = await internalUser(b);
    expect((await postLogin(b.publicUrl, { email: u.email, password })).body.expires_in).toBe(120);
  });

  it('refuses suspended accounts', async () => {
    const u = await internalUser(b);
    expect((await api(b.internalUrl).put(`/i/users/${u.id}/status`, { status: 'suspended' })).status).toBe(200);
    expect(await postLogin(b.publicUrl, { email: u.email, password })).toMatchObject({
      status: 403,
      body: wireError(403, 'suspended'),
    });
  });
});

describe('setRestrictUserCreation', () => {
  let b: TestBackend;
  beforeAll(async () => {
    b = await startEditedBackend([opt('setRestrictUserCreation', true)]);
  });
  afterAll(() => b?.stop());

  it('refuses personal users and team creators, not ephemeral users', async () => {
    expect(await postRegister(b.publicUrl, { name: 'P', email: uniqueEmail(), password })).toMatchObject({
      status: 403,
      body: wireError(403, 'user-creation-restricted'),
    });
    const team = { name: 'T', icon: 'default' };
    expect((await postRegister(b.publicUrl, { name: 'O', email: uniqueEmail(), password, team })).status).toBe(403);
    expect((await postRegister(b.publicUrl, { name: 'Guest' })).status).toBe(201);
    expect((await call(b.publicUrl, '/v8/system/settings/unauthorized')).body).toEqual({
      setRestrictUserCreation: true,
    });
  });
});

describe('password hash migration', () => {
  it('moves scrypt hashes to argon2id on login, never back, and both keep verifying', async () => {
    const argon = { algorithm: 'argon2id', iterations: 1, memory: 1024, parallelism: 1 };
    // The shipped algorithm, which test backends otherwise replace with a cheap argon2id.
    const scrypt = opt('setPasswordHashingOptions', { algorithm: 'scrypt' });
    const first = await startEditedBackend([scrypt]);
    const u = await internalUser(first);
    await first.stop();

    const second = await startEditedBackend([opt('setPasswordHashingOptions', argon)], { stateDir: first.stateDir });
    const stored = async () =>
      (await second.query<{ password: string }>('SELECT password FROM users WHERE id = ?', u.id))[0]!.password;
    expect(await stored()).toMatch(/^\$scrypt\$/);
    expect((await postLogin(second.publicUrl, { email: u.email, password })).status).toBe(200);
    expect(await stored()).toMatch(/^\$argon2id\$v=19\$m=1024,t=1,p=1\$/);
    await second.stop();

    const third = await startEditedBackend([scrypt], { stateDir: first.stateDir });
    expect((await postLogin(third.publicUrl, { email: u.email, password })).status).toBe(200);
    expect(
      (await third.query<{ password: string }>('SELECT password FROM users WHERE id = ?', u.id))[0]!.password,
    ).toMatch(/^\$argon2id\$/);
    await third.stop();
  });
});
