// Users, clients, connections and conversations made as a Wire client makes them: through the
// public API of a backend started as `npm start` starts it. The activation code is read where the
// local backend keeps the mail it sends (the internal API's activation-code lookup).
import { proteusKeys } from '../../test/helpers/prekeys.js';
import type { SeededUser } from './seed.js';

/** Attempts of a request that failed below HTTP (the connection closed or reset). */
const ATTEMPTS = 3;

/**
 * fetch, sent again when the connection failed before an answer: a setup of 10,000 users sends
 * hundreds of thousands of requests, and one pooled connection closed by the server just as a
 * request went out would end it. Only the setup's requests come here, and each is safe to repeat
 * (apiUser's registration is repeated whole, with a new address).
 */
async function send(url: URL, init: RequestInit): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fetch(url, init);
    } catch (err) {
      if (attempt >= ATTEMPTS || !(err instanceof TypeError)) throw err;
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      console.error(`${init.method} ${url.pathname}: ${cause?.code ?? cause?.message ?? err.message}, sent again`);
    }
  }
}

export async function call(base: URL, path: string, init: { method: string; token?: string; body?: unknown }) {
  const res = await send(new URL(path, base), {
    method: init.method,
    headers: {
      'content-type': 'application/json',
      ...(init.token === undefined ? {} : { authorization: `Bearer ${init.token}` }),
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${init.method} ${path}: ${res.status} ${text}`);
  return text === '' ? undefined : JSON.parse(text);
}

/** Where a backend listens: the public ingress and the internal one. */
export interface Listening {
  publicUrl: URL;
  internalUrl: URL;
}

/** A user made through the API, with the cookie of their login (for more access tokens). */
export type ApiUser = SeededUser & { cookie: string };

let counter = 0;
/** Every API user's password (deleting a permanent client asks for it). */
export const PASSWORD = 'bench-password';

/**
 * A user as the web app makes one: registered with the code mailed to their address, logged in
 * with a persistent cookie, one permanent client with real prekeys, and an access token for that
 * client from `/access?client_id=`.
 */
export async function apiUser(backend: Listening, o: { teamOwner?: boolean } = {}): Promise<ApiUser> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await registeredUser(backend, o);
    } catch (err) {
      // A registration sent again after a lost answer finds its address taken: a new user instead.
      if (attempt >= ATTEMPTS) throw err;
    }
  }
}

async function registeredUser(backend: Listening, o: { teamOwner?: boolean }): Promise<ApiUser> {
  const email = `bench-${Date.now().toString(36)}-${++counter}@example.com`;
  const password = PASSWORD;
  const pub = backend.publicUrl;
  await call(pub, '/v8/activate/send', { method: 'POST', body: { email } });
  const { code } = await call(backend.internalUrl, `/i/users/activation-code?email=${encodeURIComponent(email)}`, {
    method: 'GET',
  });
  const user = await call(pub, '/v8/register', {
    method: 'POST',
    body: {
      name: 'Bench',
      email,
      password,
      email_code: code,
      ...(o.teamOwner ? { team: { name: 'Bench', icon: 'default' } } : {}),
    },
  });
  const login = await send(new URL('/v8/login?persist=true', pub), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (!login.ok) throw new Error(`POST /v8/login: ${login.status} ${await login.text()}`);
  const cookie = /zuid=[^;]+/.exec(login.headers.get('set-cookie') ?? '')?.[0];
  const { access_token } = (await login.json()) as { access_token: string };
  const client = await call(pub, '/v8/clients', {
    method: 'POST',
    token: access_token,
    body: { type: 'permanent', password, ...(await proteusKeys(1)) },
  });
  const access = await send(new URL(`/v8/access?client_id=${client.id}`, pub), {
    method: 'POST',
    headers: { cookie: cookie ?? '', authorization: `Bearer ${access_token}` },
  });
  if (!access.ok) throw new Error(`POST /v8/access: ${access.status} ${await access.text()}`);
  const { access_token: token } = (await access.json()) as { access_token: string };
  return { id: user.id, clients: [client.id], token, cookie: cookie ?? '' };
}

/**
 * Another access token of the user's login (for its client, if the login was bound to one): another
 * connection, as a second device's would be, or a fresh one when the last has expired.
 */
export async function anotherToken(backend: Listening, user: { cookie: string }): Promise<string> {
  const access = await send(new URL('/v8/access', backend.publicUrl), {
    method: 'POST',
    headers: { cookie: user.cookie },
  });
  if (!access.ok) throw new Error(`POST /v8/access: ${access.status} ${await access.text()}`);
  return ((await access.json()) as { access_token: string }).access_token;
}

/** Connects two users of (possibly) different backends: `from` asks, `to` accepts. */
export async function connectUsers(
  from: { user: SeededUser; backend: Listening },
  to: { user: SeededUser; backend: Listening; domain: string },
  fromDomain: string,
): Promise<void> {
  await call(from.backend.publicUrl, `/v8/connections/${to.domain}/${to.user.id}`, {
    method: 'POST',
    token: from.user.token,
  });
  await call(to.backend.publicUrl, `/v8/connections/${fromDomain}/${from.user.id}`, {
    method: 'PUT',
    token: to.user.token,
    body: { status: 'accepted' },
  });
}

/** A group conversation `creator` makes with `others` (qualified); its id. */
export async function groupOf(
  backend: Listening,
  creator: SeededUser,
  others: Array<{ id: string; domain: string }>,
): Promise<string> {
  const r = await call(backend.publicUrl, '/v8/conversations', {
    method: 'POST',
    token: creator.token,
    body: { name: 'bench', qualified_users: others },
  });
  return r.qualified_id.id as string;
}

/** Runs `work` for 0..n-1, at most `width` at a time. */
export async function inParallel<T>(n: number, width: number, work: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array(n);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, n) }, async () => {
      while (next < n) {
        const i = next++;
        out[i] = await work(i);
      }
    }),
  );
  return out;
}

/** `count` users made through the API, the first connected to each other, who accepts. */
async function contactsOfFirst(backend: Listening, count: number, domain: string): Promise<ApiUser[]> {
  const users = await inParallel(count, 8, () => apiUser(backend));
  const [first, ...others] = users as [ApiUser, ...ApiUser[]];
  await inParallel(others.length, 8, (i) =>
    connectUsers({ user: first, backend }, { user: others[i]!, backend, domain }, domain),
  );
  return users;
}

/**
 * A group conversation of `members` users made through the API: the first (the sender) connected
 * to each other, who accepts; created with the first hundred and grown by `/members` in hundreds.
 */
export async function apiConversation(
  backend: Listening,
  members: number,
  domain: string,
): Promise<{ conv: string; users: ApiUser[] }> {
  const users = await contactsOfFirst(backend, members, domain);
  const [sender, ...others] = users as [ApiUser, ...ApiUser[]];
  const qualified = others.map((u) => ({ id: u.id, domain }));
  const conv = await groupOf(backend, sender, qualified.slice(0, 100));
  for (let at = 100; at < qualified.length; at += 100)
    await call(backend.publicUrl, `/v8/conversations/${domain}/${conv}/members`, {
      method: 'POST',
      token: sender.token,
      body: { qualified_users: qualified.slice(at, at + 100), conversation_role: 'wire_member' },
    });
  return { conv, users };
}
