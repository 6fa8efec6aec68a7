import { describe, expect, it } from 'vitest';
import { sharedBackend } from '../../helpers/backend.js';
import { call, wireError } from '../../helpers/http.js';
import { api, cookieOf, createUser, login } from '../../helpers/users.js';
import {
  getCookies,
  getSelf,
  getSystemSettings,
  postAccess,
  postLogin,
  postLogout,
  putSelfHandle,
  putSelfPassword,
  removeCookies,
} from '../../helpers/endpoints/brig.js';

const { publicUrl, internalUrl } = sharedBackend();
const anon = api(publicUrl);

describe('login, access tokens and cookies', () => {
  it('logs in by email or handle; a session cookie without persist', async () => {
    const u = await createUser(publicUrl, internalUrl);
    const handle = `h${u.id.slice(0, 8)}`;
    expect((await putSelfHandle(publicUrl, u.token, { handle })).status).toBe(200);
    const r = await postLogin(publicUrl, { handle, password: u.password, label: 'laptop' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ user: u.id, access_token: expect.any(String), token_type: 'Bearer', expires_in: 900 });
    expect(r.headers.get('set-cookie')).not.toMatch(/Expires=/);
    expect(await postLogin(publicUrl, { email: u.email, password: 'wrong-password' })).toMatchObject({
      status: 403,
      body: wireError(403, 'invalid-credentials'),
    });
    expect(await postLogin(publicUrl, { email: 'nobody@example.com', password: 'whatever' })).toMatchObject({
      status: 403,
      body: wireError(403, 'invalid-credentials'),
    });
    expect(await postLogin(publicUrl, { password: 'whatever' })).toMatchObject({
      status: 400,
      body: wireError(400, 'bad-request'),
    });
  });

  it('verifies tokens on authenticated routes: 401 without or with a bad one', async () => {
    const u = await createUser(publicUrl, internalUrl);
    expect(await getSelf(publicUrl, undefined)).toMatchObject({ status: 401, body: wireError(401, 'client-error') });
    const tampered = `${u.token.slice(0, -4)}AAAA`;
    expect((await getSelf(publicUrl, tampered)).status).toBe(401);
    expect((await getSelf(publicUrl, u.token)).body.id).toBe(u.id);
    expect((await anon.get(`/v8/self?access_token=${u.token}`)).body.id).toBe(u.id);
    const aws = await getSelf(publicUrl, undefined, {
      headers: {
        authorization: `AWS4-HMAC-SHA256 Credential=${u.token}, SignedHeaders=host, Signature=x`,
      },
    });
    expect(aws.body.id).toBe(u.id);
    // A cookie is not an access token.
    expect((await getSelf(publicUrl, u.cookie.slice('zuid='.length))).status).toBe(401);
  });

  it('renews access from the cookie; answers 403 (never 401) when it cannot', async () => {
    const u = await createUser(publicUrl, internalUrl);
    const r = await postAccess(publicUrl, undefined, u.cookie, undefined, {
      headers: { authorization: `Bearer ${u.token}` },
    });
    expect(r.status).toBe(200);
    expect(r.body.user).toBe(u.id);
    expect((await getSelf(publicUrl, r.body.access_token)).status).toBe(200);

    expect(await postAccess(publicUrl, undefined, undefined)).toMatchObject({
      status: 403,
      body: wireError(403, 'invalid-credentials'),
    });
    // A cookie or token that does not even read as one is a client error, as wire's brig has it.
    const unreadable = {
      status: 403,
      body: { code: 403, label: 'client-error', message: 'Failed reading: Invalid zauth token' },
    };
    expect(await postAccess(publicUrl, undefined, 'zuid=garbage')).toMatchObject(unreadable);
    expect(await postAccess(publicUrl, undefined, `zuid=${u.token}`)).toMatchObject(unreadable);
    expect(
      await postAccess(publicUrl, undefined, u.cookie, undefined, { headers: { authorization: 'Bearer garbage' } }),
    ).toMatchObject(unreadable);
    expect(
      await postLogout(publicUrl, undefined, 'zuid=garbage', { headers: { authorization: `Bearer ${u.token}` } }),
    ).toMatchObject(unreadable);
    // One that reads as a cookie but is not valid is refused as such.
    const forged = `${u.cookie.slice(0, -4)}AAAA`;
    expect(await postAccess(publicUrl, undefined, forged)).toMatchObject({
      status: 403,
      body: { code: 403, label: 'invalid-credentials', message: 'Invalid zauth token' },
    });
    const other = await createUser(publicUrl, internalUrl);
    expect(
      (
        await postAccess(publicUrl, undefined, u.cookie, undefined, {
          headers: { authorization: `Bearer ${other.token}` },
        })
      ).status,
    ).toBe(403);
    // Several zuid cookies: the valid one wins.
    expect((await postAccess(publicUrl, undefined, `zuid=garbage; ${u.cookie}`)).status).toBe(200);
    // An unknown client id cannot be bound.
    expect((await postAccess(publicUrl, undefined, u.cookie, { client_id: 'abcdef' })).status).toBe(403);
  });

  it('logout revokes the cookie', async () => {
    const u = await createUser(publicUrl, internalUrl);
    expect((await postLogout(publicUrl, undefined, u.cookie)).status).toBe(403);
    expect(
      (await postLogout(publicUrl, undefined, u.cookie, { headers: { authorization: `Bearer ${u.token}` } })).status,
    ).toBe(200);
    expect((await postAccess(publicUrl, undefined, u.cookie)).status).toBe(403);
  });

  it('lists cookies and removes them by label or id, with the password', async () => {
    const u = await createUser(publicUrl, internalUrl);
    const tablet = await postLogin(
      publicUrl,
      { email: u.email, password: u.password, label: 'tablet' },
      { persist: true },
    );
    const listed = await getCookies(publicUrl, u.token);
    expect(listed.body.cookies).toHaveLength(3); // registration, login, tablet
    expect(listed.body.cookies[0]).toEqual({
      id: expect.any(Number),
      type: 'persistent',
      created: expect.any(String),
      expires: expect.any(String),
      label: null,
      successor: null,
    });
    expect((await getCookies(publicUrl, u.token, { labels: 'tablet' })).body.cookies.map((c: any) => c.label)).toEqual([
      'tablet',
    ]);
    expect(await removeCookies(publicUrl, u.token, { password: 'wrong-password', labels: ['tablet'] })).toMatchObject({
      status: 403,
      body: wireError(403, 'invalid-credentials'),
    });
    expect((await removeCookies(publicUrl, u.token, { password: u.password, labels: ['tablet'] })).status).toBe(200);
    expect((await postAccess(publicUrl, undefined, cookieOf(tablet))).status).toBe(403);
    expect((await postAccess(publicUrl, undefined, u.cookie)).status).toBe(200);
  });

  it('changes the password: old one required, must differ, every cookie revoked', async () => {
    const u = await createUser(publicUrl, internalUrl);
    const me = api(publicUrl, u.token);
    expect((await me.head('/v8/self/password')).status).toBe(200);
    expect(
      await putSelfPassword(publicUrl, u.token, { old_password: 'wrong-password', new_password: 'another-password' }),
    ).toMatchObject({
      status: 403,
      body: wireError(403, 'invalid-credentials'),
    });
    expect(
      await putSelfPassword(publicUrl, u.token, { old_password: u.password, new_password: u.password }),
    ).toMatchObject({
      status: 409,
      body: wireError(409, 'password-must-differ'),
    });
    expect(
      await putSelfPassword(publicUrl, u.token, { old_password: u.password, new_password: 'short' }),
    ).toMatchObject({
      status: 400,
    });
    expect(
      (await putSelfPassword(publicUrl, u.token, { old_password: u.password, new_password: 'another-password' }))
        .status,
    ).toBe(200);
    expect((await postAccess(publicUrl, undefined, u.cookie)).status).toBe(403);
    await login(publicUrl, u.email, 'another-password');
  });

  it('exposes the authorized system settings with the MLS switch', async () => {
    const u = await createUser(publicUrl, internalUrl);
    expect((await getSystemSettings(publicUrl, u.token)).body).toEqual({
      setRestrictUserCreation: false,
      setEnableMls: true, // the shipped configuration enables MLS
    });
    expect((await call(publicUrl, '/v8/system/settings')).status).toBe(401);
  });
});
