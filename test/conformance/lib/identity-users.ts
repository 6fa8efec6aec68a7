import { expect } from 'vitest';
import { sharedBackend } from '../../helpers/backend.js';
import type { Reply } from '../../helpers/http.js';
import { invitationCode } from '../../helpers/mailbox.js';
import { openSocket, type TestSocket } from '../../helpers/websocket.js';
import { api, cookieOf, uniqueEmail } from '../../helpers/users.js';
import { postLogin, postRegister } from '../../helpers/endpoints/brig.js';

/** A backend the scenarios talk to: its listeners and its federation domain. */
export interface Backend {
  publicUrl: string;
  internalUrl: string;
  domain: string;
}

/** The backend every test file shares (shipped configuration, example.com). */
export const ownBackend = (): Backend => ({ ...sharedBackend(), domain: 'example.com' });

/** A logged-in user and the backend it lives on. */
export interface User {
  id: string;
  domain: string;
  name: string;
  email: string;
  password: string;
  token: string;
  cookie: string;
  team?: string;
  backend: Backend;
}

export const PASSWORD = 'secret-password';
export const qid = (u: { id: string; domain: string }) => ({ id: u.id, domain: u.domain });

/** The versioned public API as a user (default v8), or anonymously. */
export function as(u: User | Backend, version = 8) {
  const backend = 'backend' in u ? u.backend : u;
  const token = 'token' in u ? u.token : undefined;
  const client = api(backend.publicUrl, token);
  const v = (p: string) => `/v${version}${p}`;
  return {
    get: (p: string, headers?: Record<string, string>) => client.get(v(p), headers),
    head: (p: string) => client.head(v(p)),
    del: (p: string, body?: unknown) => client.del(v(p), body),
    post: (p: string, body?: unknown, headers?: Record<string, string>) => client.post(v(p), body, headers),
    put: (p: string, body?: unknown) => client.put(v(p), body),
  };
}

/** The internal API of a backend (or of the backend a user lives on). */
export const internal = (b: User | Backend) => api('backend' in b ? b.backend.internalUrl : b.internalUrl);

async function loginAs(b: Backend, email: string, password = PASSWORD): Promise<{ token: string; cookie: string }> {
  const r = await postLogin(b.publicUrl, { email, password }, { persist: true });
  expect(r.status, r.text).toBe(200);
  return { token: r.body.access_token, cookie: cookieOf(r) };
}

/** wire's `randomUser`: an activated account made through the internal API, then logged in. */
export async function randomUser(
  b: Backend,
  o: { name?: string; email?: string; password?: string; team?: boolean; supportedProtocols?: string[] } = {},
): Promise<User> {
  const email = o.email ?? uniqueEmail('u');
  const password = o.password ?? PASSWORD;
  const name = o.name ?? email;
  const r = await api(b.internalUrl).post('/i/users', {
    name,
    email,
    password,
    ...(o.supportedProtocols === undefined ? {} : { supported_protocols: o.supportedProtocols }),
    ...(o.team ? { team: { name: 'integration test team', icon: 'default' } } : {}),
  });
  expect(r.status, r.text).toBe(201);
  const session = await loginAs(b, email, password);
  return { id: r.body.id, domain: b.domain, name, email, password, ...session, team: r.body.team, backend: b };
}

/** An invitee of `inviter`'s team with a role, registered with the mailed code and logged in. */
export async function createTeamMember(inviter: User, o: { role?: string; email?: string } = {}): Promise<User> {
  const b = inviter.backend;
  const email = o.email ?? uniqueEmail('m');
  const invited = await as(inviter).post(`/teams/${inviter.team}/invitations`, { email, role: o.role ?? 'member' });
  expect(invited.status, invited.text).toBe(201);
  const r = await postRegister(b.publicUrl, {
    name: email,
    email,
    password: PASSWORD,
    team_code: await invitationCode(b.publicUrl, email),
  });
  expect(r.status, r.text).toBe(201);
  const session = await loginAs(b, email);
  return {
    id: r.body.id,
    domain: b.domain,
    name: email,
    email,
    password: PASSWORD,
    ...session,
    team: inviter.team,
    backend: b,
  };
}

/** wire's `createTeam`: an owner and `count - 1` members. */
export async function createTeam(b: Backend, count = 1): Promise<{ owner: User; tid: string; members: User[] }> {
  const owner = await randomUser(b, { team: true });
  const members = await Promise.all(Array.from({ length: count - 1 }, () => createTeamMember(owner)));
  return { owner, tid: owner.team!, members };
}

export const postConnection = (from: User, to: { id: string; domain: string }) =>
  as(from).post(`/connections/${to.domain}/${to.id}`);
export const putConnection = (from: User, to: { id: string; domain: string }, status: string) =>
  as(from).put(`/connections/${to.domain}/${to.id}`, { status });
export const getConnection = (from: User, to: { id: string; domain: string }) =>
  as(from).get(`/connections/${to.domain}/${to.id}`);

/** Every pair of users connected (the earlier one asks, the later one accepts). */
export async function connectUsers(...users: User[]): Promise<void> {
  for (let i = 0; i < users.length; i++)
    for (const other of users.slice(i + 1)) {
      const asked = await postConnection(users[i]!, other);
      expect(asked.status, asked.text).toBeLessThan(300);
      const accepted = await putConnection(other, users[i]!, 'accepted');
      expect(accepted.status, accepted.text).toBe(200);
    }
}

/** A status and label, as wire's tests check errors. */
export function expectError(r: Reply, status: number, label: string): void {
  expect({ status: r.status, label: r.body?.label }, r.text).toEqual({ status, label });
}

export function expectStatus(r: Reply, status: number): void {
  expect(r.status, r.text).toBe(status);
}

/** A websocket of the user's notifications (optionally for one client). */
export const userSocket = (u: User, client?: string): Promise<TestSocket> =>
  openSocket(u.backend.publicUrl, `/v8/await?access_token=${u.token}${client ? `&client=${client}` : ''}`);

/** The next event of a type (and matching `also`) on a notification socket. */
export async function awaitEvent(s: TestSocket, type: string, also: (e: any) => boolean = () => true): Promise<any> {
  const n = await s.next((m: any) => m?.payload?.some((e: any) => e.type === type && also(e)));
  return n.payload.find((e: any) => e.type === type && also(e));
}

/** The user's events so far of a type, from the notification stream. */
export async function eventsOf(u: User, type: string): Promise<any[]> {
  const r = await as(u).get('/notifications?size=1000');
  return r.body.notifications.flatMap((n: any) => n.payload).filter((e: any) => e.type === type);
}

export const randomId = () => crypto.randomUUID();
