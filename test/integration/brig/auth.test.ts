import { describe, expect, it } from 'vitest';
import { sharedBackend } from '../../helpers/backend.js';
import { call, wireError } from '../../helpers/http.js';
import { api, cookieOf, createUser, login } from '../../helpers/users.js';

const { publicUrl, internalUrl } = sharedBackend();
const anon = api(publicUrl);

describe('login, access tokens and cookies', () => {
  it('logs in by email or handle; a session cookie without persist', async () => {
    const u = await createUser(publicUrl, internalUrl);
    const handle = `h${u.id.slice(0, 8)}`;
    expect((await api(publicUrl, u.token).put('/v8/self/handle', { handle })).status).toBe(200);
    const r = await anon.post('/v8/login', { handle, password: u.password, label: 'laptop' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ user: u.id, access_token: expect.any(String), token_type: 'Bearer', expires_in: 900 });
    expect(r.headers.get('set-cookie')).not.toMatch(/Expires=/);
    expect(await anon.post('/v8/login', { email: u.email, password: 'wrong-password' })).toMatchObject({
      status: 403,
      body: wireError(403, 'invalid-credentials'),
    });
    expect(await anon.post('/v8/login', { email: 'nobody@example.com', password: 'whatever' })).toMatchObject({
      status: 403,
      body: wireError(403, 'invalid-credentials'),
    });
    expect(await anon.post('/v8/login', { password: 'whatever' })).toMatchObject({
      status: 400,
      body: wireError(400, 'bad-request'),
    });
  });

  it('verifies tokens on authenticated routes: 401 without or with a bad one', async () => {
    const u = await createUser(publicUrl, internalUrl);
    expect(await anon.get('/v8/self')).toMatchObject({ status: 401, body: wireError(401, 'client-error') });
    const tampered = `${u.token.slice(0, -4)}AAAA`;
    expect((await api(publicUrl, tampered).get('/v8/self')).status).toBe(401);
    expect((await api(publicUrl, u.token).get('/v8/self')).body.id).toBe(u.id);
    expect((await anon.get(`/v8/self?access_token=${u.token}`)).body.id).toBe(u.id);
    const aws = await anon.get('/v8/self', {
      authorization: `AWS4-HMAC-SHA256 Credential=${u.token}, SignedHeaders=host, Signature=x`,
    });
    expect(aws.body.id).toBe(u.id);
    // A cookie is not an access token.
    expect((await api(publicUrl, u.cookie.slice('zuid='.length)).get('/v8/self')).status).toBe(401);
  });

  it('renews access from the cookie; answers 403 (never 401) when it cannot', async () => {
    const u = await createUser(publicUrl, internalUrl);
    const r = await anon.post('/v8/access', undefined, { cookie: u.cookie, authorization: `Bearer ${u.token}` });
    expect(r.status).toBe(200);
    expect(r.body.user).toBe(u.id);
    expect((await api(publicUrl, r.body.access_token).get('/v8/self')).status).toBe(200);

    expect(await anon.post('/v8/access')).toMatchObject({ status: 403, body: wireError(403, 'invalid-credentials') });
    // A cookie or token that does not even read as one is a client error, as wire's brig has it.
    const unreadable = {
      status: 403,
      body: { code: 403, label: 'client-error', message: 'Failed reading: Invalid zauth token' },
    };
    expect(await anon.post('/v8/access', undefined, { cookie: 'zuid=garbage' })).toMatchObject(unreadable);
    expect(await anon.post('/v8/access', undefined, { cookie: `zuid=${u.token}` })).toMatchObject(unreadable);
    expect(
      await anon.post('/v8/access', undefined, { cookie: u.cookie, authorization: 'Bearer garbage' }),
    ).toMatchObject(unreadable);
    expect(
      await anon.post('/v8/access/logout', undefined, { cookie: 'zuid=garbage', authorization: `Bearer ${u.token}` }),
    ).toMatchObject(unreadable);
    // One that reads as a cookie but is not valid is refused as such.
    const forged = `${u.cookie.slice(0, -4)}AAAA`;
    expect(await anon.post('/v8/access', undefined, { cookie: forged })).toMatchObject({
      status: 403,
      body: { code: 403, label: 'invalid-credentials', message: 'Invalid zauth token' },
    });
    const other = await createUser(publicUrl, internalUrl);
    expect(
      (await anon.post('/v8/access', undefined, { cookie: u.cookie, authorization: `Bearer ${other.token}` })).status,
    ).toBe(403);
    // Several zuid cookies: the valid one wins.
    expect((await anon.post('/v8/access', undefined, { cookie: `zuid=garbage; ${u.cookie}` })).status).toBe(200);
    // An unknown client id cannot be bound.
    expect((await anon.post('/v8/access?client_id=abcdef', undefined, { cookie: u.cookie })).status).toBe(403);
  });

  it('logout revokes the cookie', async () => {
    const u = await createUser(publicUrl, internalUrl);
    expect((await anon.post('/v8/access/logout', undefined, { cookie: u.cookie })).status).toBe(403);
    expect(
      (await anon.post('/v8/access/logout', undefined, { cookie: u.cookie, authorization: `Bearer ${u.token}` }))
        .status,
    ).toBe(200);
    expect((await anon.post('/v8/access', undefined, { cookie: u.cookie })).status).toBe(403);
  });

  it('lists cookies and removes them by label or id, with the password', async () => {
    const u = await createUser(publicUrl, internalUrl);
    const tablet = await anon.post('/v8/login?persist=true', { email: u.email, password: u.password, label: 'tablet' });
    const me = api(publicUrl, u.token);
    const listed = await me.get('/v8/cookies');
    expect(listed.body.cookies).toHaveLength(3); // registration, login, tablet
    expect(listed.body.cookies[0]).toEqual({
      id: expect.any(Number),
      type: 'persistent',
      created: expect.any(String),
      expires: expect.any(String),
      label: null,
      successor: null,
    });
    expect((await me.get('/v8/cookies?labels=tablet')).body.cookies.map((c: any) => c.label)).toEqual(['tablet']);
    expect(await me.post('/v8/cookies/remove', { password: 'wrong-password', labels: ['tablet'] })).toMatchObject({
      status: 403,
      body: wireError(403, 'invalid-credentials'),
    });
    expect((await me.post('/v8/cookies/remove', { password: u.password, labels: ['tablet'] })).status).toBe(200);
    expect((await anon.post('/v8/access', undefined, { cookie: cookieOf(tablet) })).status).toBe(403);
    expect((await anon.post('/v8/access', undefined, { cookie: u.cookie })).status).toBe(200);
  });

  it('changes the password: old one required, must differ, every cookie revoked', async () => {
    const u = await createUser(publicUrl, internalUrl);
    const me = api(publicUrl, u.token);
    expect((await me.head('/v8/self/password')).status).toBe(200);
    expect(
      await me.put('/v8/self/password', { old_password: 'wrong-password', new_password: 'another-password' }),
    ).toMatchObject({
      status: 403,
      body: wireError(403, 'invalid-credentials'),
    });
    expect(await me.put('/v8/self/password', { old_password: u.password, new_password: u.password })).toMatchObject({
      status: 409,
      body: wireError(409, 'password-must-differ'),
    });
    expect(await me.put('/v8/self/password', { old_password: u.password, new_password: 'short' })).toMatchObject({
      status: 400,
    });
    expect(
      (await me.put('/v8/self/password', { old_password: u.password, new_password: 'another-password' })).status,
    ).toBe(200);
    expect((await anon.post('/v8/access', undefined, { cookie: u.cookie })).status).toBe(403);
    await login(publicUrl, u.email, 'another-password');
  });

  it('exposes the authorized system settings with the MLS switch', async () => {
    const u = await createUser(publicUrl, internalUrl);
    expect((await api(publicUrl, u.token).get('/v8/system/settings')).body).toEqual({
      setRestrictUserCreation: false,
      setEnableMls: true, // the shipped configuration enables MLS
    });
    expect((await call(publicUrl, '/v8/system/settings')).status).toBe(401);
  });
});
