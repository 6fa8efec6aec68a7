import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { proteusKeys } from '../../test/helpers/prekeys.js';
import type { Backend } from '../../tools/lib/backend.js';
import { bundleWorker, ROOT } from '../../tools/lib/bundle.js';
import { readConfigTexts } from '../../tools/lib/config-dir.js';
import { defaultTexts } from '../../tools/lib/config-edit.js';
import { startLocalDns } from '../../tools/lib/local-dns.js';
import { startBackendWithSidecar } from '../../tools/lib/sidecar.js';
import type { SeededUser } from './seed.js';

export const A = 'example.com';
export const B = 'b.example.com';

/**
 * The README's two local backends (config/ and config/b.example.com/) with their federators, a
 * local CA and one DNS server, on free ports and fresh memory-backed state; removed on dispose.
 */
export async function benchPair(): Promise<{ a: Backend; b: Backend; dispose(): Promise<void> }> {
  const root = mkdtempSync(join(process.env.TMPDIR ?? (existsSync('/dev/shm') ? '/dev/shm' : tmpdir()), 'svc-bench-'));
  const bundle = await bundleWorker(join(root, 'build'));
  const dns = await startLocalDns();
  const start = (name: string, config: ReturnType<typeof defaultTexts>) =>
    startBackendWithSidecar(
      { port: 0, internalPort: 0, config, stateDir: join(root, name), bundle, onLog: () => {} },
      { root, dns },
    );
  const a = await start('a', defaultTexts());
  const b = await start('b', readConfigTexts(join(ROOT, 'config', B)));
  for (const [domain, backend] of [
    [A, a],
    [B, b],
  ] as const)
    dns.set(`_svc-federator._tcp.${domain}`, { target: '127.0.0.1', port: backend.federator.externalPort! });
  return {
    a,
    b,
    dispose: async () => {
      await Promise.all([a.stop(), b.stop()]);
      await dns.stop();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

async function call(base: URL, path: string, init: { method: string; token?: string; body?: unknown }) {
  const res = await fetch(new URL(path, base), {
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

let counter = 0;

/** A user with one Proteus client, made through the API (internal user creation, login, client). */
export async function apiUser(backend: Backend): Promise<SeededUser> {
  const email = `bench-${Date.now().toString(36)}-${++counter}@example.com`;
  const password = 'bench-password';
  const user = await call(backend.internalUrl, '/i/users', {
    method: 'POST',
    body: { name: 'Bench', email, password },
  });
  const login = await call(backend.publicUrl, '/v8/login', { method: 'POST', body: { email, password } });
  const token = login.access_token as string;
  const client = await call(backend.publicUrl, '/v8/clients', {
    method: 'POST',
    token,
    body: { type: 'permanent', password, ...(await proteusKeys(1)) },
  });
  return { id: user.id, clients: [client.id], token };
}

/** Connects two users of (possibly) different backends: `from` asks, `to` accepts. */
export async function connectUsers(
  from: { user: SeededUser; backend: Backend },
  to: { user: SeededUser; backend: Backend; domain: string },
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
  backend: Backend,
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
