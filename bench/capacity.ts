// The inputs of the capacity model (docs/architecture.md, issue 44), measured on the path a client
// takes: users made through the API of the backend `npm start` runs, each with CLIENTS clients
// holding PREKEYS Proteus prekeys and KEY_PACKAGES MLS key packages, then the first connected to
// the others, then conversations of all of them. Printed: the bytes per user, per connection and
// per conversation member of D1 and of each class of Durable Object (pages in use, read from their
// files with the backend stopped), and the D1 statements per request of each route the run used
// (`svc_d1_queries_total`) and the calls to objects, by class (`svc_object_calls_total`). Nothing is asserted.
import { existsSync, readdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { mlsKeys } from '../test/helpers/mls-key-packages.js';
import { proteusKeys } from '../test/helpers/prekeys.js';
import { persistDir } from '../tools/lib/backend.js';
import { type ApiUser, apiUser, call, connectUsers, groupOf, inParallel } from './lib/api-seed.js';
import { npmStart, type StartedBackend } from './lib/npm-start.js';
import { sqliteBytes } from './lib/sqlite-size.js';

const USERS = Number(process.env.BENCH_CAPACITY_USERS ?? 30);
const CONVERSATIONS = Number(process.env.BENCH_CAPACITY_CONVERSATIONS ?? 5);
const CLIENTS = 2;
const PREKEYS = 100;
const KEY_PACKAGES = 100;
const DOMAIN = 'example.com';
const PASSWORD = 'bench-password'; // api-seed's

/** What the stores hold, in bytes: D1 and each class of Durable Object (all its objects). */
interface Sizes {
  d1: number;
  objects: Record<string, number>;
}

/** Pages in use of every SQLite database below `dir` (see sqliteBytes), 0 when there is none. */
const sqliteBytesIn = (dir: string) =>
  existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.sqlite') && f !== 'metadata.sqlite')
        .reduce((sum, f) => sum + sqliteBytes(join(dir, f)), 0)
    : 0;

/** The stores' sizes, read with the backend down (then started again). */
async function storeBytes(backend: StartedBackend): Promise<Sizes> {
  await backend.down();
  const persist = persistDir(backend.stateDir);
  const d1 = sqliteBytesIn(join(persist, 'd1', 'miniflare-D1DatabaseObject'));
  const objects: Record<string, number> = {};
  // Miniflare keeps each class's objects in a folder named `<script>-<class>`.
  for (const folder of readdirSync(join(persist, 'do')))
    objects[folder.replace(/^svc-objects-/, '')] = sqliteBytesIn(join(persist, 'do', folder));
  await backend.up();
  return { d1, objects };
}

/** Bytes per unit that each store grew by between two measures. */
const kb = (bytes: number) => (bytes / 1024).toFixed(1);

function growth(from: Sizes, to: Sizes, units: number): string {
  const parts = [`D1 ${kb((to.d1 - from.d1) / units)} KB`];
  for (const [cls, bytes] of Object.entries(to.objects)) {
    const grown = bytes - (from.objects[cls] ?? 0);
    if (grown !== 0) parts.push(`${cls} objects ${kb(grown / units)} KB`);
  }
  return parts.join(', ');
}

/** The user's first client gets PREKEYS prekeys; the others are added with as many. */
async function proteusClients(backend: StartedBackend, u: ApiUser): Promise<string[]> {
  const { prekeys } = await proteusKeys(PREKEYS);
  await call(backend.publicUrl, `/v8/clients/${u.clients[0]}`, { method: 'PUT', token: u.token, body: { prekeys } });
  const more = await inParallel(CLIENTS - 1, 1, async () => {
    const keys = await proteusKeys(PREKEYS);
    const body = { type: 'permanent', password: PASSWORD, ...keys };
    return (await call(backend.publicUrl, '/v8/clients', { method: 'POST', token: u.token, body })).id as string;
  });
  return [u.clients[0]!, ...more];
}

/** Each client registers its signature key and uploads KEY_PACKAGES key packages made with it. */
async function mlsClients(backend: StartedBackend, u: ApiUser, clients: readonly string[]): Promise<void> {
  for (const client of clients) {
    const keys = await mlsKeys({ user: u.id, domain: DOMAIN });
    const body = { mls_public_keys: { [keys.scheme]: keys.publicKey } };
    await call(backend.publicUrl, `/v8/clients/${client}`, { method: 'PUT', token: u.token, body });
    const key_packages = await keys.keyPackages(client, KEY_PACKAGES);
    await call(backend.publicUrl, `/v8/mls/key-packages/self/${client}`, {
      method: 'POST',
      token: u.token,
      body: { key_packages },
    });
  }
}

/** Per route the run called: its requests, D1 statements per request and object calls per request by class. */
async function costPerRequest(backend: StartedBackend) {
  const text = await (await fetch(new URL('/i/metrics', backend.internalUrl))).text();
  const series = (name: string) =>
    [
      ...text.matchAll(
        new RegExp(`^${name}\\{handler="([^"]*)",method="([^"]*)"(?:,class="([^"]*)")?[^}]*\\} (\\d+)`, 'gm'),
      ),
    ].map((m) => ({ route: `${m[2]} ${m[1]}`, objectClass: m[3], n: Number(m[4]) }));
  const requests = new Map<string, number>();
  for (const { route, n } of series('http_request_duration_seconds_count'))
    requests.set(route, (requests.get(route) ?? 0) + n);
  const calls = new Map<string, string[]>();
  for (const { route, objectClass, n } of series('svc_object_calls_total')) {
    const per = (n / (requests.get(route) ?? 1)).toFixed(2);
    calls.set(route, [...(calls.get(route) ?? []), `${objectClass} ${per}`]);
  }
  return series('svc_d1_queries_total')
    .filter(({ route }) => (requests.get(route) ?? 0) > 0)
    .map(({ route, n }) => ({
      route,
      requests: requests.get(route)!,
      statements: n / requests.get(route)!,
      calls: calls.get(route) ?? [],
    }))
    .sort((a, b) => b.statements - a.statements);
}

// Mail goes to an HTTP sink, as a deployment's leaves: the local outbox would keep it in D1.
const mailSink = createServer((req, res) => req.resume().on('end', () => res.writeHead(200).end()));
await new Promise<void>((listening) => mailSink.listen(0, '127.0.0.1', listening));
const sinkUrl = `http://127.0.0.1:${(mailSink.address() as AddressInfo).port}/mail`;
const backend = await npmStart([['brig.yaml', ['emailSMS', 'delivery'], { type: 'http', url: sinkUrl }]]);
try {
  const empty = await storeBytes(backend);
  const users = await inParallel(USERS, 8, () => apiUser(backend));
  const clients = await inParallel(users.length, 4, (i) => proteusClients(backend, users[i]!));
  const proteus = await storeBytes(backend);
  await inParallel(users.length, 2, (i) => mlsClients(backend, users[i]!, clients[i]!));
  const mls = await storeBytes(backend);
  const [first, ...others] = users as [ApiUser, ...ApiUser[]];
  await inParallel(others.length, 8, (i) =>
    connectUsers({ user: first, backend }, { user: others[i]!, backend, domain: DOMAIN }, DOMAIN),
  );
  const connected = await storeBytes(backend);
  const qualified = others.map((u) => ({ id: u.id, domain: DOMAIN }));
  await inParallel(CONVERSATIONS, 1, () => groupOf(backend, first, qualified));
  const conversations = await storeBytes(backend);

  const each = `${CLIENTS} clients, ${PREKEYS} prekeys each`;
  console.log(`Bytes stored (${USERS} users through the API; ${each})`);
  console.log(`  per user, registered with their clients and prekeys: ${growth(empty, proteus, USERS)}`);
  console.log(`  per user, ${KEY_PACKAGES} MLS key packages per client added: ${growth(proteus, mls, USERS)}`);
  console.log(`  per user in all: ${growth(empty, mls, USERS)} (issue 44's target: D1 2 KB)`);
  console.log(`  per connection (the first user connected to each other one): ${growth(mls, connected, USERS - 1)}`);
  const members = CONVERSATIONS * USERS;
  console.log(
    `  per conversation member (${CONVERSATIONS} conversations of ${USERS}): ${growth(connected, conversations, members)}`,
  );
  console.log('\nPer request, by route (svc_d1_queries_total and svc_object_calls_total over the requests of the run)');
  console.log('route                                                       requests   D1 statements   object calls');
  for (const r of await costPerRequest(backend))
    console.log(
      `${r.route.padEnd(60)}${String(r.requests).padStart(8)}   ${r.statements.toFixed(2).padStart(13)}   ${r.calls.join(', ')}`,
    );
} finally {
  await backend.stop();
  mailSink.close();
}
