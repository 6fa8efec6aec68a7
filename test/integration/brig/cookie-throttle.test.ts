import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEditedBackend, type TestBackend } from '../../helpers/backend.js';
import type { Edit } from '../../helpers/config-files.js';
import { wireError } from '../../helpers/http.js';
import { api, cookieOf, uniqueEmail } from '../../helpers/users.js';
import { postAccess, postLogin } from '../../helpers/endpoints/brig.js';

const opt = (key: string, value: unknown): Edit => ['brig.yaml', ['optSettings', key], value];
const password = 'secret-password';
// Seconds, small: the cookies' records live in the users' Account objects, so the tests let time
// pass rather than write older creation times.
const retryAfter = 4;
const stdDev = 1;
const renewAge = 2;
const passing = (seconds: number) => new Promise((done) => setTimeout(done, seconds * 1000));

describe('setUserCookieThrottle', () => {
  let b: TestBackend;
  beforeAll(async () => {
    b = await startEditedBackend([
      opt('setUserCookieLimit', 2),
      opt('setUserCookieThrottle', { stdDev, retryAfter }),
      opt('setUserCookieRenewAge', renewAge),
    ]);
  });
  afterAll(() => b?.stop());

  /** A user holding `setUserCookieLimit` persistent cookies, the second made `apart` seconds after the first. */
  async function userAtLimit(apart = 0) {
    const email = uniqueEmail('throttled');
    const r = await api(b.internalUrl).post('/i/users', { name: 'Throttled', email, password });
    expect(r.status, r.text).toBe(201);
    const first = await persistentLogin(email);
    await passing(apart);
    const cookies = [first, await persistentLogin(email)].map((l) => {
      expect(l.status, l.text).toBe(200);
      return cookieOf(l);
    });
    return { id: r.body.id as string, email, cookies };
  }
  const persistentLogin = (email: string) => postLogin(b.publicUrl, { email, password }, { persist: true });
  const access = (cookie: string) => postAccess(b.publicUrl, undefined, cookie);
  it('refuses a login that would evict a cookie made too close to the others: 429 with Retry-After, nothing evicted, per cookie type', async () => {
    const u = await userAtLimit();
    const refused = await persistentLogin(u.email);
    expect(refused).toMatchObject({
      status: 429,
      body: { ...wireError(429, 'client-error'), message: 'Logins too frequent' },
    });
    const wait = Number(refused.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(retryAfter - 2);
    expect(wait).toBeLessThanOrEqual(retryAfter);
    expect(refused.headers.get('set-cookie')).toBeNull();
    // Session cookies have their own limit: neither throttled nor evicting persistent ones.
    expect((await postLogin(b.publicUrl, { email: u.email, password })).status).toBe(200);
    for (const cookie of u.cookies) expect((await access(cookie)).status).toBe(200);
  });

  it('lets the login evict the oldest cookie once the newest is retryAfter old', async () => {
    const u = await userAtLimit();
    await passing(retryAfter + 0.5);
    expect((await persistentLogin(u.email)).status).toBe(200);
    expect((await access(u.cookies[0]!)).status).toBe(403);
    expect((await access(u.cookies[1]!)).status).toBe(200);
  });

  it('lets the login evict the oldest cookie when creation times spread more than stdDev', async () => {
    const u = await userAtLimit(2.2); // two times 2 or 3 s apart: standard deviation 1.4 s or more
    expect((await persistentLogin(u.email)).status).toBe(200);
    expect((await access(u.cookies[0]!)).status).toBe(403);
    expect((await access(u.cookies[1]!)).status).toBe(200);
  });

  it('does not throttle the renewal of a cookie at /access', async () => {
    const u = await userAtLimit();
    await passing(renewAge + 0.2); // older than setUserCookieRenewAge, close together, younger than retryAfter
    expect((await persistentLogin(u.email)).status).toBe(429);
    const renewed = await access(u.cookies[0]!);
    expect(renewed.status, renewed.text).toBe(200);
    expect(cookieOf(renewed)).not.toBe(u.cookies[0]);
  });
});
