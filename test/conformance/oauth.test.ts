import { describe, expect, it } from 'vitest';
import { call, type Reply } from '../helpers/http.js';
import { as, expectStatus, internal, ownBackend, PASSWORD, randomUser, type User } from './lib/identity-users.js';

const own = ownBackend();
const URI = 'https://example.com';
const SCOPES = ['write:conversations'];

const createOAuthClient = async (name = 'foobar', url = URI) => {
  const r = await internal(own).post('/i/oauth/clients', { application_name: name, redirect_url: url });
  expectStatus(r, 200);
  return r.body.client_id as string;
};

const tokenForm = (fields: Record<string, string>) =>
  call(own.publicUrl, '/v8/oauth/token', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });

/** wire's generateAccessToken: an authorization code (PKCE, S256) exchanged for tokens. */
async function generateAccessToken(user: User, cid: string): Promise<{ access_token: string; refresh_token: string }> {
  const code = await as(user).post('/oauth/authorization/codes', {
    client_id: cid,
    scope: SCOPES.join(' '),
    redirect_uri: URI,
    code_challenge: 'G7CWLBqYDT8doT_oEIN3un_QwZWYKHmOqG91nwNzITc',
    code_challenge_method: 'S256',
    response_type: 'code',
    state: 'abc',
  });
  const location = new URL(code.headers.get('location')!);
  const r = await tokenForm({
    grant_type: 'authorization_code',
    client_id: cid,
    code_verifier:
      'nE3k3zykOmYki~kriKzAmeFiGT7cWugcuToFwo1YPgrZ1cFvaQqLa.dXY9MnDj3umAmG-8lSNIYIl31Cs_.fV5r2psa4WWZcB.Nlc3A-t3p67NDZaOJjIiH~8PvUH_hR',
    code: location.searchParams.get('code')!,
    redirect_uri: URI,
  });
  expectStatus(r, 200);
  return r.body;
}

const refresh = (cid: string, token: string) =>
  tokenForm({ grant_type: 'refresh_token', client_id: cid, refresh_token: token });
const applications = async (u: User): Promise<any[]> => {
  const r = await as(u).get('/oauth/applications');
  expectStatus(r, 200);
  return r.body;
};
const ok = (r: Reply) => expect(r.status, r.text).toBeLessThan(300);

describe('OAuth', () => {
  it('OAuth.testOAuthRevokeSession', async () => {
    const user = await randomUser(own);
    const cid = await createOAuthClient();
    const revoked = await generateAccessToken(user, cid);
    const [app] = await applications(user);
    const [session] = app.sessions;
    const valid = await generateAccessToken(user, cid);
    expect((await applications(user))[0].sessions).toHaveLength(2);
    const sessionPath = `/oauth/applications/${cid}/sessions/${session.refresh_token_id}`;
    expectStatus(await as(user).del(sessionPath, { password: 'foobar' }), 403);
    ok(await as(user).del(sessionPath, { password: PASSWORD }));
    expect((await applications(user))[0].sessions).toHaveLength(1);
    expectStatus(await refresh(cid, revoked.refresh_token), 403);
    ok(await refresh(cid, valid.refresh_token));
  });

  const revokeAll = (version: 6 | 8) => async () => {
    const user = await randomUser(own);
    expect(await applications(user)).toHaveLength(0);
    for (let i = 0; i < 3; i++) await generateAccessToken(user, await createOAuthClient());
    const [cid1, cid2, cid3] = (await applications(user)).map((a) => a.id as string);
    const revoke = (cid: string, password = PASSWORD) =>
      version === 6
        ? as(user, 6).del(`/oauth/applications/${cid}`)
        : as(user).del(`/oauth/applications/${cid}/sessions`, { password });
    if (version === 8) expectStatus(await revoke(cid1!, 'foobar'), 403);
    ok(await revoke(cid1!));
    expect(new Set((await applications(user)).map((a) => a.id))).toEqual(new Set([cid2, cid3]));
    ok(await revoke(cid2!));
    expect((await applications(user)).map((a) => a.id)).toEqual([cid3]);
    ok(await revoke(cid3!));
    expect(await applications(user)).toHaveLength(0);
  };
  it('OAuth.testRevokeApplicationAccountAccessV6', revokeAll(6));
  it('OAuth.testRevokeApplicationAccountAccess', revokeAll(8));

  it('Brig.testCrudOAuthClient', async () => {
    const url = 'https://example.com/callback.html';
    const cid = await createOAuthClient('foobar', url);
    const got = await internal(own).get(`/i/oauth/clients/${cid}`);
    expectStatus(got, 200);
    expect(got.body).toMatchObject({ application_name: 'foobar', redirect_url: url });
    const newUrl = 'https://example.com/callback2.html';
    const updated = await internal(own).put(`/i/oauth/clients/${cid}`, {
      application_name: 'barfoo',
      redirect_url: newUrl,
    });
    expectStatus(updated, 200);
    expect(updated.body).toMatchObject({ application_name: 'barfoo', redirect_url: newUrl });
    expectStatus(await internal(own).del(`/i/oauth/clients/${cid}`), 200);
    expectStatus(await internal(own).get(`/i/oauth/clients/${cid}`), 404);
  });
});
