/**
 * What most conformance scenarios share: the shared backend, qualified ids, users made and
 * connected the way wire-server's integration suite makes them, and the websocket events it awaits.
 */
import { expect } from 'vitest';
import { sharedBackend } from '../../helpers/backend.js';
import {
  api,
  connect,
  cookieOf,
  createUser,
  invitedMember,
  login,
  type TeamOwner,
  teamOwner,
  type TestUser,
} from '../../helpers/users.js';
import { openSocket, type TestSocket } from '../../helpers/websocket.js';
import { postRegister } from '../../helpers/endpoints/brig.js';
import { postConversation } from '../../helpers/endpoints/galley.js';

export const DOMAIN = 'example.com';
export const { publicUrl: pub, internalUrl: internal } = sharedBackend();

const q = (id: string, domain = DOMAIN) => ({ id, domain });
export const qOf = (u: { id: string }) => q(u.id);

/** `n` new users of the shared backend, each connected to every other. */
export async function connectedUsers(n: number, base = pub, internalBase = internal): Promise<TestUser[]> {
  const users = await Promise.all(Array.from({ length: n }, () => createUser(base, internalBase)));
  const pairs: Array<[TestUser, TestUser]> = [];
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) pairs.push([users[i]!, users[j]!]);
  await Promise.all(pairs.map(([a, b]) => connect(base, a, b)));
  return users;
}

/** A team: its owner and `members` more users invited with `role`. */
export async function team(
  members = 0,
  role: 'member' | 'admin' | 'partner' = 'member',
): Promise<{ owner: TeamOwner; tid: string; members: TestUser[] }> {
  const owner = await teamOwner(pub, internal);
  const list = await Promise.all(Array.from({ length: members }, () => invitedMember(pub, owner, role)));
  return { owner, tid: owner.team, members: list };
}

/** `POST /v8/conversations` with Wire's client defaults (Proteus, members as qualified ids), expecting 201: its body. */
export async function newConv(u: TestUser, body: Record<string, unknown> = {}): Promise<any> {
  const r = await postConversation(pub, u.token, { qualified_users: [], ...body });
  expect(r.status, r.text).toBe(201);
  return r.body;
}

/** The conversation id of a conversation body. */
export const cid = (conv: any): string => conv.qualified_id.id;

/**
 * A user's legacy notification websocket (`/await`), optionally bound to a client. It uses a token
 * of its own: events caused by requests made with the socket's own token (its connection) skip it.
 */
export async function socketOf(u: TestUser, client?: string, base = pub): Promise<TestSocket> {
  const { token } = await login(base, u.email, u.password);
  return openSocket(base, `/v8/await?access_token=${token}${client === undefined ? '' : `&client=${client}`}`);
}

/** The first payload event of `type` on a legacy websocket (optionally also matching `also`). */
export async function awaitEvent(ws: TestSocket, type: string, also: (e: any) => boolean = () => true): Promise<any> {
  const m = await ws.next((n: any) => n?.payload?.[0]?.type === type && also(n.payload[0]));
  return m.payload[0];
}

export const as = (u: TestUser, base = pub) => api(base, u.token);

/** An unactivated (guest) user: registered with a name only; its id and access token. */
export async function guestUser(base = pub): Promise<{ id: string; token: string }> {
  const r = await postRegister(base, { name: 'Guest' });
  expect(r.status, r.text).toBe(201);
  const access = await api(base).post('/access', undefined, { cookie: cookieOf(r) });
  expect(access.status, access.text).toBe(200);
  return { id: r.body.id, token: access.body.access_token };
}
