import { describe, expect, it } from 'vitest';
import { sharedBackend } from '../../helpers/backend.js';
import { call, wireError } from '../../helpers/http.js';
import { lastMail } from '../../helpers/mailbox.js';
import { proteusKeys } from '../../helpers/prekeys.js';
import { api, createUser, login } from '../../helpers/users.js';
import { openSocket } from '../../helpers/websocket.js';
import {
  deleteSelf,
  getConnection,
  getSelf,
  getUser,
  postAccess,
  postActivate,
  postClient,
  postConnection,
  postDelete,
  postLogin,
  postPasswordReset,
  postPasswordResetComplete,
  putConnection,
  putSelfHandle,
} from '../../helpers/endpoints/brig.js';
import { getNotifications } from '../../helpers/endpoints/gundeck.js';

const { publicUrl, internalUrl } = sharedBackend();

describe('password reset', () => {
  it('resets with the mailed code, revoking cookies; wrong inputs fail cleanly', async () => {
    const u = await createUser(publicUrl, internalUrl);
    expect((await postPasswordReset(publicUrl, { email: u.email })).status).toBe(201);
    expect((await postPasswordReset(publicUrl, { email: 'nobody@example.com' })).status).toBe(201);
    expect(await postPasswordReset(publicUrl, { phone: '+4915112345678' })).toMatchObject({
      status: 400,
      body: wireError(400, 'invalid-phone'),
    });
    const { key, code } = (await call(internalUrl, `/i/users/password-reset-code?email=${encodeURIComponent(u.email)}`))
      .body;
    expect((await lastMail(publicUrl, u.email)).text).toContain(code);

    expect(
      await postPasswordResetComplete(publicUrl, { key, code: 'wrong', password: 'brand-new-password' }),
    ).toMatchObject({
      status: 400,
      body: wireError(400, 'invalid-code'),
    });
    expect(await postPasswordResetComplete(publicUrl, { key, code, password: u.password })).toMatchObject({
      status: 409,
      body: wireError(409, 'password-must-differ'),
    });
    expect(
      await postPasswordResetComplete(publicUrl, {
        email: 'nobody@example.com',
        code,
        password: 'brand-new-password',
      }),
    ).toMatchObject({
      status: 400,
      body: wireError(400, 'invalid-key'),
    });
    expect((await postPasswordResetComplete(publicUrl, { key, code, password: 'brand-new-password' })).status).toBe(
      200,
    );
    expect((await postAccess(publicUrl, undefined, u.cookie)).status).toBe(403);
    await login(publicUrl, u.email, 'brand-new-password');
    // The code is spent.
    expect((await postPasswordResetComplete(publicUrl, { key, code, password: 'third-password' })).status).toBe(400);
  });
});

describe('account deletion', () => {
  it('deletes with the password: tombstone profile, events to contacts, address and handle freed', async () => {
    const u = await createUser(publicUrl, internalUrl, { name: 'Leaving' });
    const friend = await createUser(publicUrl, internalUrl);
    const asked = await createUser(publicUrl, internalUrl);
    await postConnection(publicUrl, u.token, { domain: 'example.com', id: friend.id });
    await putConnection(publicUrl, friend.token, { domain: 'example.com', id: u.id }, { status: 'accepted' });
    await postConnection(publicUrl, u.token, { domain: 'example.com', id: asked.id });
    await putSelfHandle(publicUrl, u.token, { handle: `bye-${u.id.slice(0, 8)}` });
    await postClient(publicUrl, u.token, { type: 'permanent', ...(await proteusKeys(1)) });
    const friendSocket = await openSocket(publicUrl, `/v8/await?access_token=${friend.token}`);
    const askedSocket = await openSocket(publicUrl, `/v8/await?access_token=${asked.token}`);

    expect(await deleteSelf(publicUrl, u.token, { password: 'wrong-password' })).toMatchObject({
      status: 403,
      body: wireError(403, 'invalid-credentials'),
    });
    expect((await deleteSelf(publicUrl, u.token, { password: u.password })).status).toBe(200);

    expect((await friendSocket.next((m) => m.payload[0].type === 'user.delete')).payload[0]).toEqual({
      type: 'user.delete',
      id: u.id,
      qualified_id: { id: u.id, domain: 'example.com' },
    });
    const cancelled = await askedSocket.next((m) => m.payload[0].type === 'user.connection');
    expect(cancelled).toMatchObject({
      transient: true,
      payload: [{ connection: { from: asked.id, to: u.id, status: 'cancelled' } }],
    });
    expect((await getUser(publicUrl, friend.token, { domain: 'example.com', id: u.id })).body).toMatchObject({
      id: u.id,
      name: 'default',
      deleted: true,
    });
    expect((await api(publicUrl, friend.token).head(`/v8/handles/bye-${u.id.slice(0, 8)}`)).status).toBe(404);
    expect((await postAccess(publicUrl, undefined, u.cookie)).status).toBe(403);
    expect((await postLogin(publicUrl, { email: u.email, password: u.password })).status).toBe(403);
    expect((await getConnection(publicUrl, friend.token, { domain: 'example.com', id: u.id })).status).toBe(404);
    await friendSocket.close();
    await askedSocket.close();
  });

  it('without a password mails a key and code; POST /delete finishes', async () => {
    const u = await createUser(publicUrl, internalUrl);
    const first = await deleteSelf(publicUrl, u.token, {});
    expect(first).toMatchObject({ status: 202, body: { expires_in: 600 } });
    const again = await deleteSelf(publicUrl, u.token, {});
    expect(again).toMatchObject({
      status: 403,
      body: { ...wireError(403, 'pending-delete'), expires_in: expect.any(Number) },
    });
    const mail = (await lastMail(publicUrl, u.email)).text;
    const [, key, code] = /key (\S+) and code (\S+)\./.exec(mail)!;
    expect(await postDelete(publicUrl, { key, code: 'wrong-code' })).toMatchObject({
      status: 403,
      body: wireError(403, 'invalid-code'),
    });
    expect((await postDelete(publicUrl, { key, code })).status).toBe(200);
    expect((await postLogin(publicUrl, { email: u.email, password: u.password })).status).toBe(403);
  });

  it('refuses team owners', async () => {
    const email = `owner-${Date.now()}@example.com`;
    const owner = await api(internalUrl).post('/i/users', {
      name: 'Owner',
      email,
      password: 'secret-password',
      team: { name: 'T', icon: 'default' },
    });
    const { token } = await login(publicUrl, email, 'secret-password');
    expect(await deleteSelf(publicUrl, token, { password: 'secret-password' })).toMatchObject({
      status: 403,
      body: wireError(403, 'no-self-delete-for-team-owner'),
    });
    expect(owner.status).toBe(201);
  });
});

describe('email change', () => {
  it('needs cookie and token, mails a code to the new address, and switches on activation', async () => {
    const u = await createUser(publicUrl, internalUrl);
    const next = `changed-${u.email}`;
    const me = api(publicUrl, u.token);
    expect(await me.put('/access/self/email', { email: next })).toMatchObject({
      status: 403,
      body: wireError(403, 'invalid-credentials'),
    });
    const withCookie = (email: string) =>
      call(publicUrl, '/access/self/email', {
        method: 'PUT',
        headers: { authorization: `Bearer ${u.token}`, cookie: u.cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ email }),
      });
    expect((await withCookie(u.email)).status).toBe(204);
    expect(await withCookie('not-an-email')).toMatchObject({ status: 400, body: wireError(400, 'invalid-email') });
    expect((await withCookie(next)).status).toBe(202);
    expect((await getSelf(publicUrl, u.token)).body).toMatchObject({ email: u.email, email_unvalidated: next });

    const { key, code } = (await call(internalUrl, `/i/users/activation-code?email=${encodeURIComponent(next)}`)).body;
    expect(await postActivate(publicUrl, { key, code, dryrun: false })).toMatchObject({
      status: 200,
      body: { email: next, first: false },
    });
    const self = (await getSelf(publicUrl, u.token)).body;
    expect(self.email).toBe(next);
    expect(self.email_unvalidated).toBeUndefined();
    const events = (await getNotifications(publicUrl, u.token)).body.notifications.map((n: any) => n.payload[0]);
    expect(events).toContainEqual({ type: 'user.update', user: { id: u.id, email: next } });
    await login(publicUrl, next, u.password);
    expect((await postLogin(publicUrl, { email: u.email, password: u.password })).status).toBe(403);
  });
});
