import { expect } from 'vitest';
import { call, type Reply } from './http.js';
import { invitationCode } from './mailbox.js';
import {
  postActivateSend,
  postConnection,
  postLogin,
  postRegister,
  postTeamInvitation,
  putConnection,
} from './endpoints/brig.js';
import { send } from './endpoints/request.js';

/** A registered, activated and logged-in user. */
export interface TestUser {
  id: string;
  name: string;
  email: string;
  password: string;
  /** Access token */
  token: string;
  /** The `zuid=...` cookie pair for `/access` */
  cookie: string;
}

let counter = 0;
export const uniqueEmail = (prefix = 'user') => `${prefix}-${Date.now().toString(36)}-${++counter}@example.com`;

/** JSON request helper; `token` adds the Bearer header. */
export function api(base: string, token?: string) {
  const req = (method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Reply> =>
    send(base, token, method, path, body, { headers });
  return {
    get: (path: string, headers?: Record<string, string>) => req('GET', path, undefined, headers),
    head: (path: string) => req('HEAD', path),
    del: (path: string, body?: unknown) => req('DELETE', path, body),
    post: (path: string, body?: unknown, headers?: Record<string, string>) => req('POST', path, body, headers),
    put: (path: string, body?: unknown) => req('PUT', path, body),
    patch: (path: string, body?: unknown) => req('PATCH', path, body),
  };
}

/** The `zuid=<token>` pair of a response's Set-Cookie. */
export function cookieOf(r: Reply): string {
  const setCookie = r.headers.get('set-cookie') ?? '';
  const m = /zuid=[^;]+/.exec(setCookie);
  expect(m, `no zuid cookie in "${setCookie}"`).not.toBeNull();
  return m![0];
}

/** The activation code the backend mailed (read through the internal API). */
export async function activationCode(internal: string, email: string): Promise<string> {
  const r = await call(internal, `/i/users/activation-code?email=${encodeURIComponent(email)}`);
  expect(r.status).toBe(200);
  return r.body.code as string;
}

export async function login(pub: string, email: string, password: string, persist = true) {
  const r = await postLogin(pub, { email, password }, persist ? { persist: true } : {});
  expect(r.status, r.text).toBe(200);
  return { token: r.body.access_token as string, cookie: cookieOf(r) };
}

/** Registers a user with a verified email (code from /activate/send), then logs in. */
export async function createUser(
  pub: string,
  internal: string,
  o: { name?: string; email?: string; password?: string; extra?: Record<string, unknown> } = {},
): Promise<TestUser> {
  const email = o.email ?? uniqueEmail();
  const password = o.password ?? 'secret-password';
  const name = o.name ?? 'Test User';
  expect((await postActivateSend(pub, { email })).status).toBe(200);
  const email_code = await activationCode(internal, email);
  const r = await postRegister(pub, { name, email, password, email_code, ...o.extra });
  expect(r.status, r.text).toBe(201);
  const { token, cookie } = await login(pub, email, password);
  return { id: r.body.id, name, email, password, token, cookie };
}

/** Makes two users connected (a asks, b accepts). */
export async function connect(pub: string, a: TestUser, b: TestUser): Promise<void> {
  expect((await postConnection(pub, a.token, { domain: 'example.com', id: b.id })).status).toBe(201);
  expect((await putConnection(pub, b.token, { domain: 'example.com', id: a.id }, { status: 'accepted' })).status).toBe(
    200,
  );
}

/** Three new users, the first connected to the other two (Alice, Bob and Carol of many tests). */
export async function connectedTrio(pub: string, internal: string): Promise<[TestUser, TestUser, TestUser]> {
  const trio = await Promise.all([createUser(pub, internal), createUser(pub, internal), createUser(pub, internal)]);
  await connect(pub, trio[0], trio[1]);
  await connect(pub, trio[0], trio[2]);
  return trio;
}

export type TeamOwner = TestUser & { team: string };

/** A team created with its owner through the internal API (no activation mail round trip). */
export async function teamOwner(pub: string, internal: string, name = 'Owner', teamName = 'T'): Promise<TeamOwner> {
  const email = uniqueEmail('owner');
  const password = 'secret-password';
  const created = await api(internal).post('/i/users', {
    name,
    email,
    password,
    team: { name: teamName, icon: 'default' },
  });
  expect(created.status, created.text).toBe(201);
  return {
    id: created.body.id,
    name,
    email,
    password,
    ...(await login(pub, email, password)),
    team: created.body.team,
  };
}

export type TeamRole = 'owner' | 'admin' | 'member' | 'partner';

/** A new address invited into the owner's team with a role, registered with the mailed code and logged in. */
export async function invitedMember(
  pub: string,
  owner: TeamOwner,
  role: TeamRole = 'member',
): Promise<TestUser & { team: string }> {
  const email = uniqueEmail(role);
  const password = 'secret-password';
  const invited = await postTeamInvitation(pub, owner.token, owner.team, { email, role });
  expect(invited.status, invited.text).toBe(201);
  const r = await postRegister(pub, {
    name: role,
    email,
    password,
    team_code: await invitationCode(pub, email),
  });
  expect(r.status, r.text).toBe(201);
  return { id: r.body.id, name: role, email, password, ...(await login(pub, email, password)), team: owner.team };
}
