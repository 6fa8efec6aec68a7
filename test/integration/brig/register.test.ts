import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { sharedBackend } from '../../helpers/backend.js';
import { call, wireError } from '../../helpers/http.js';
import { activationCode, api, cookieOf, login, uniqueEmail } from '../../helpers/users.js';
import { getSelf, postActivate, postActivateSend, postLogin, postRegister } from '../../helpers/endpoints/brig.js';
import { getNotifications } from '../../helpers/endpoints/gundeck.js';

const { publicUrl, internalUrl } = sharedBackend();
const password = 'secret-password';

describe('POST /register and activation', () => {
  it('creates a pending account, mails a code, and activates it', async () => {
    const email = uniqueEmail('pending');
    const r = await postRegister(publicUrl, { name: 'Pending', email, password, locale: 'de' });
    expect(r.status).toBe(201);
    expect(r.headers.get('location')).toBe(r.body.id);
    expect(r.body).toMatchObject({
      name: 'Pending',
      email,
      status: 'active',
      locale: 'de',
      managed_by: 'wire',
      supported_protocols: ['proteus'],
      qualified_id: { id: r.body.id, domain: 'example.com' },
    });
    const setCookie = r.headers.get('set-cookie')!;
    expect(setCookie).toMatch(/^zuid=[^;]+; Path=\/access; HttpOnly; Expires=/);
    expect(setCookie).not.toMatch(/Secure/); // setCookieInsecure in the local config

    const self = await api(publicUrl).post('/access', undefined, { cookie: cookieOf(r) });
    expect(self.status).toBe(200);
    const before = await getSelf(publicUrl, self.body.access_token);
    expect(before.body.email).toBeUndefined();
    expect(before.body.email_unvalidated).toBe(email);

    expect(await postLogin(publicUrl, { email, password })).toMatchObject({
      status: 403,
      body: wireError(403, 'pending-activation'),
    });

    const mail = await call(publicUrl, `/mailbox?to=${encodeURIComponent(email)}`, {
      headers: { authorization: `Basic ${btoa('mail:local-mailbox')}` },
    });
    const code = await activationCode(internalUrl, email);
    expect(mail.body.messages[0]).toMatchObject({ to: email, subject: 'Dein Bestätigungscode' });
    expect(mail.body.messages[0].text).toContain(code);

    expect(
      await postActivate(publicUrl, { email, code: '000000' === code ? '111111' : '000000', dryrun: false }),
    ).toMatchObject({
      status: 404,
      body: wireError(404, 'invalid-code'),
    });
    expect((await postActivate(publicUrl, { email, code, dryrun: true })).status).toBe(200);
    expect(await postActivate(publicUrl, { email, code, dryrun: false })).toMatchObject({
      status: 200,
      body: { email, first: true },
    });
    expect((await postActivate(publicUrl, { email, code, dryrun: false })).status).toBe(204);
    const { token } = await login(publicUrl, email, password);
    expect((await getSelf(publicUrl, token)).body.email).toBe(email);
  });

  it('activates at once with a code from /activate/send, and the address is then taken', async () => {
    const email = uniqueEmail('verified');
    await postActivateSend(publicUrl, { email });
    const email_code = await activationCode(internalUrl, email);
    const r = await postRegister(publicUrl, { name: 'Verified', email, password, email_code });
    expect(r.status).toBe(201);
    const { token } = await login(publicUrl, email.toUpperCase(), password);
    const notes = await getNotifications(publicUrl, token);
    expect(notes.body.notifications.map((n: any) => n.payload[0].type)).toContain('user.activate');

    expect(await postRegister(publicUrl, { name: 'Again', email, password })).toMatchObject({
      status: 409,
      body: wireError(409, 'key-exists'),
    });
    expect(await postActivateSend(publicUrl, { email })).toMatchObject({
      status: 409,
      body: wireError(409, 'key-exists'),
    });
  });

  it('refuses a wrong email_code without writing anything', async () => {
    const email = uniqueEmail('wrongcode');
    await postActivateSend(publicUrl, { email });
    const code = await activationCode(internalUrl, email);
    const wrong = code === '123456' ? '654321' : '123456';
    expect(await postRegister(publicUrl, { name: 'X', email, password, email_code: wrong })).toMatchObject({
      status: 404,
      body: wireError(404, 'invalid-code'),
    });
    // No account was made: the right code still registers the address.
    expect((await postRegister(publicUrl, { name: 'X', email, password, email_code: code })).status).toBe(201);
  });

  it('lets exactly one of two simultaneous registrations claim an address', async () => {
    const email = uniqueEmail('race');
    await postActivateSend(publicUrl, { email });
    const email_code = await activationCode(internalUrl, email);
    const results = await Promise.all(
      [1, 2, 3].map((i) => postRegister(publicUrl, { name: `Racer ${i}`, email, password, email_code })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    for (const r of results.filter((r) => r.status === 409)) expect(r.body).toEqual(wireError(409, 'key-exists'));
  });

  it('creates a team with the registrant as its owner', async () => {
    const email = uniqueEmail('owner');
    await postActivateSend(publicUrl, { email });
    const email_code = await activationCode(internalUrl, email);
    const r = await postRegister(publicUrl, {
      name: 'Owner',
      email,
      password,
      email_code,
      team: { name: 'Acme', icon: 'default' },
    });
    expect(r.status).toBe(201);
    expect(r.body.team).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('makes ephemeral users without an email: session cookie, expiry, no login', async () => {
    const r = await postRegister(publicUrl, { name: 'Guest', expires_in: 3600 });
    expect(r.status).toBe(201);
    expect(r.body.status).toBe('ephemeral');
    expect(Date.parse(r.body.expires_at) - Date.now()).toBeGreaterThan(3500_000);
    expect(r.headers.get('set-cookie')).not.toMatch(/Expires=/);
    expect((await api(publicUrl).post('/access', undefined, { cookie: cookieOf(r) })).status).toBe(200);
  });

  it('reads gzip-encoded JSON, as the official clients send it', async () => {
    const body = gzipSync(JSON.stringify({ name: 'Zipped' }));
    const r = await call(publicUrl, '/v8/register', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body,
    });
    expect(r.status).toBe(201);
    expect(r.body.name).toBe('Zipped');
    const broken = await call(publicUrl, '/v8/register', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: 'not gzip at all',
    });
    expect(broken).toMatchObject({ status: 400, body: wireError(400, 'bad-request') });
  });

  it.each([
    ['malformed JSON', '{"name":', 'bad-request'],
    ['a name too long', JSON.stringify({ name: 'x'.repeat(129) }), 'bad-request'],
    ['a wrongly typed field', JSON.stringify({ name: 'X', accent_id: 'blue' }), 'bad-request'],
    ['a short password', JSON.stringify({ name: 'X', email: 'a@example.com', password: 'short' }), 'bad-request'],
    ['an invalid email', JSON.stringify({ name: 'X', email: 'not-an-email', password }), 'invalid-email'],
    ['a phone number', JSON.stringify({ name: 'X', phone: '+4915112345678' }), 'invalid-phone'],
    [
      'a team without a password',
      JSON.stringify({ name: 'X', email: 'b@example.com', team: { name: 'T', icon: 'default' } }),
      'bad-request',
    ],
    [
      'two origins',
      JSON.stringify({ name: 'X', email: 'c@example.com', password, team_code: 'x', team: { name: 'T', icon: 'i' } }),
      'bad-request',
    ],
    [
      'an expiring user with an email',
      JSON.stringify({ name: 'X', email: 'd@example.com', expires_in: 10 }),
      'bad-request',
    ],
  ])('answers 400 to %s', async (_what, body, label) => {
    const r = await call(publicUrl, '/v8/register', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(r).toMatchObject({ status: 400, body: wireError(400, label) });
  });

  it('refuses an unknown team invitation code', async () => {
    const r = await postRegister(publicUrl, { name: 'X', email: uniqueEmail(), password, team_code: 'nope' });
    expect(r).toMatchObject({ status: 400, body: wireError(400, 'invalid-invitation-code') });
  });

  it('keeps the mailbox behind basic auth', async () => {
    const r = await call(publicUrl, '/mailbox?to=x@example.com');
    expect(r.status).toBe(401);
    expect(r.headers.get('www-authenticate')).toMatch(/^Basic/);
  });
});
