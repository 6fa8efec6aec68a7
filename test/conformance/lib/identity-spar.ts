import { expect } from 'vitest';
import { call, type Reply } from '../../helpers/http.js';
import { invitationCode } from '../../helpers/mailbox.js';
import { testIdp, type TestIdp } from '../../helpers/saml-idp.js';
import { finalize, initiate } from '../../helpers/saml-login.js';
import { setFeatureStatus } from './identity-features.js';
import { as, type Backend, internal, PASSWORD, type User } from './identity-users.js';
import { postRegister } from '../../helpers/endpoints/brig.js';

export interface RegisteredIdp {
  id: string;
  idp: TestIdp;
}

/** wire's registerTestIdPWithMeta: a new IdP (its own keys) registered for the owner's team (API v2). */
async function registerIdp(owner: User, version = 8): Promise<Reply & { idp: TestIdp }> {
  const idp = await testIdp();
  const r = await as(owner, version).post('/identity-providers?api_version=v2', { value: idp.metadata });
  return { ...r, idp };
}

export async function registeredIdp(owner: User): Promise<RegisteredIdp> {
  const r = await registerIdp(owner);
  expect(r.status, r.text).toBe(201);
  return { id: r.body.id, idp: r.idp };
}

/** sso enabled for the team (galley's internal API). */
export async function enableSso(owner: User): Promise<void> {
  expect((await setFeatureStatus(owner, owner.team!, 'sso', 'enabled')).status).toBe(200);
}

/** A SCIM token: v6 (`createScimTokenV6`, the IdP implicit) or the current API (with a password). */
export async function scimToken(
  owner: User,
  o: { idp?: string; name?: string; version?: number } = {},
): Promise<Reply> {
  const version = o.version ?? 8;
  return as(owner, version).post('/scim/auth-tokens', {
    description: 'conformance',
    ...(o.name === undefined ? {} : { name: o.name }),
    ...(o.idp === undefined ? {} : { idp: o.idp }),
    ...(version >= 7 ? { password: PASSWORD } : { password: PASSWORD }),
  });
}

export async function scimTokenOf(owner: User, o: { idp?: string; version?: number } = {}): Promise<string> {
  const r = await scimToken(owner, o);
  expect(r.status, r.text).toBe(200);
  return r.body.token;
}

/** A SCIM client for a token (wire's createScimUser, getScimUser, updateScimUser, findUsersByExternalId). */
export function scim(b: Backend, token: string) {
  const send = (method: string, path: string, body?: unknown) =>
    call(b.publicUrl, `/scim/v2${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        accept: 'application/scim+json',
        ...(body === undefined ? {} : { 'content-type': 'application/scim+json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  return {
    create: (user: unknown) => send('POST', '/Users', user),
    get: (id: string) => send('GET', `/Users/${id}`),
    update: (id: string, user: unknown) => send('PUT', `/Users/${id}`, user),
    remove: (id: string) => send('DELETE', `/Users/${id}`),
    byExternalId: (externalId: string) =>
      send('GET', `/Users?filter=${encodeURIComponent(`externalId eq "${externalId}"`)}`),
  };
}

let n = 0;
export const randomEmail = () => `scim-${Date.now().toString(36)}-${++n}@example.com`;
export const randomHandle = () => `h${crypto.randomUUID().replaceAll('-', '').slice(0, 16)}`;

/** wire's randomScimUserWith: externalId (an email by default), emails, a random userName and displayName. */
export function randomScimUser(
  o: { externalId?: string; prependExternalId?: boolean; otherEmails?: string[] } = {},
): Record<string, any> {
  const externalId = o.externalId ?? randomEmail();
  const emails = [...((o.prependExternalId ?? true) ? [externalId] : []), ...(o.otherEmails ?? [])];
  const handle = randomHandle();
  return {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
    externalId,
    emails: emails.map((value) => ({ value })),
    userName: handle,
    displayName: handle,
  };
}

/** wire's activateEmail: the activation code through the internal API, used at GET /activate. */
export async function activateEmail(b: Backend, email: string): Promise<void> {
  const r = await internal(b).get(`/i/users/activation-code?email=${encodeURIComponent(email)}`);
  expect(r.status, r.text).toBe(200);
  const activated = await as(b).get(`/activate?key=${r.body.key}&code=${r.body.code}`);
  expect(activated.status, activated.text).toBeLessThan(300);
}

/** wire's registerInvitedUser: the (SCIM) invitation's code, then registration with it. */
export async function registerInvitedUser(b: Backend, email: string): Promise<void> {
  const r = await postRegister(b.publicUrl, {
    name: 'Alice',
    email,
    password: PASSWORD,
    team_code: await invitationCode(b.publicUrl, email),
  });
  expect(r.status, r.text).toBe(201);
}

/** brig's internal view of users (GET /i/users?ids= or ?email=). */
export async function usersById(b: Backend, ...ids: string[]): Promise<any[]> {
  const r = await internal(b).get(`/i/users?ids=${ids.join(',')}`);
  expect(r.status, r.text).toBe(200);
  return r.body;
}
export async function usersByEmail(b: Backend, email: string): Promise<any[]> {
  const r = await internal(b).get(`/i/users?email=${encodeURIComponent(email)}`);
  expect(r.status, r.text).toBe(200);
  return r.body;
}

/** The user id a `zuid` cookie is for. */
const userOfCookie = (cookie: string) =>
  JSON.parse(Buffer.from(cookie.replace(/^zuid=/, '').split('.')[1]!, 'base64url').toString()).sub as string;

/**
 * wire's loginWithSaml: the SP-initiated flow of a browser and the IdP; the finalize page, and
 * the user and cookie when it succeeded.
 */
async function samlLogin(
  b: Backend,
  idp: RegisteredIdp,
  nameId: string,
  o: { label?: string; nameIdFormat?: string } = {},
) {
  const started = await initiate(
    b.publicUrl,
    idp.id,
    o.label === undefined ? '' : `?label=${encodeURIComponent(o.label)}`,
  );
  const answer = await idp.idp.respond({
    inResponseTo: started.id,
    recipient: started.sp,
    audience: started.sp,
    nameId,
    ...(o.nameIdFormat === undefined ? {} : { nameIdFormat: o.nameIdFormat }),
  });
  const done = await finalize(b.publicUrl, started.sp, answer);
  return { ...done, user: done.cookie === undefined ? undefined : userOfCookie(done.cookie) };
}

/** A successful SAML login's user id and cookie. */
export async function samlLoginOk(
  b: Backend,
  idp: RegisteredIdp,
  nameId: string,
  o: { label?: string; nameIdFormat?: string } = {},
) {
  const done = await samlLogin(b, idp, nameId, o);
  expect(done.status, done.text).toBe(200);
  expect(done.title, done.text).toBe('wire:sso:success');
  return { user: done.user!, cookie: done.cookie! };
}
