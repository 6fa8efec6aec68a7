import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { npmStart, type NpmStart } from '../../tools/lib/npm-start.js';
import { freeFixedPort, portFree } from '../../tools/lib/ports.js';
import { processTree, waitGone } from '../../tools/lib/process-tree.js';
import { fetchRedirect, getAsset, uploadAsset } from '../helpers/assets.js';
import { call, postJson, wireError } from '../helpers/http.js';

interface Started {
  run: NpmStart;
  port: number;
  internalPort: number;
  assets: string;
  /** What the backend answered before it said `ready` (requests made while it was starting). */
  early: number[];
}

/**
 * Starts `npm start` with these overrides and, until it is ready, keeps sending it a request that
 * needs the database: nothing may be served from a half-migrated state.
 */
/** Every `npm start` begun, so that the file's end stops them even when another failed to start. */
const begun: NpmStart[] = [];

async function start(root: string, env: Record<string, string> = {}): Promise<Started> {
  // Bound by workerd seconds later: ports no other backend's listen(0) can take meanwhile.
  const [port, internalPort] = [await freeFixedPort(), await freeFixedPort()];
  const run = npmStart({
    PORT: String(port),
    INTERNAL_PORT: String(internalPort),
    STATE_DIR: join(root, 'state'),
    ...env,
  });
  begun.push(run);
  const early: number[] = [];
  let starting = true;
  const probe = (async () => {
    while (starting) {
      try {
        const r = await postJson(`http://127.0.0.1:${port}`, '/v8/activate/send', {
          email: `early-${port}@example.com`,
        });
        early.push(r.status);
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 5));
    }
  })();
  try {
    const { assets } = await run.ready;
    return { run, port, internalPort, assets, early };
  } finally {
    starting = false;
    await probe;
  }
}

/** A new user of that backend (made through its internal API), logged in. */
async function registered(s: Started): Promise<{ id: string; token: string }> {
  const email = `start-${s.port}-${crypto.randomUUID()}@example.com`;
  const made = await postJson(`http://127.0.0.1:${s.internalPort}`, '/i/users', {
    name: 'S',
    email,
    password: 'secret-password',
  });
  expect(made.status).toBe(201);
  const login = await postJson(`http://127.0.0.1:${s.port}`, '/v8/login', { email, password: 'secret-password' });
  return { id: made.body.id, token: login.body.access_token };
}

async function roundTripsAnAsset(s: Started, domain: string): Promise<void> {
  const pub = `http://127.0.0.1:${s.port}`;
  const login = { body: { access_token: (await registered(s)).token } };
  const up = await uploadAsset(pub, login.body.access_token, Uint8Array.of(7, 8, 9));
  expect(up.status).toBe(201);
  const r = await getAsset(pub, `/v8/assets/${domain}/${up.body.key}`, login.body.access_token);
  expect(new URL(r.headers.get('location')!).origin).toBe(s.assets);
  expect([...(await fetchRedirect(r)).bytes]).toEqual([7, 8, 9]);
}

/** Runs `npm start` as an operator would, with the documented environment overrides. */
describe('npm start', () => {
  const all: Started[] = [];
  let first: Started;
  let second: Started;
  let own: Started;
  let remote: Started;
  /** Whether the configured federator port was free (no backend outside this file held it). */
  let federatorPortFree: boolean;

  beforeAll(async () => {
    const root = mkdtempSync(join(inject('tmpRoot'), 'start-'));
    const configDir = join(root, 'config');
    cpSync('config', configDir, { recursive: true });
    for (const [file, key] of [
      ['brig.yaml', 'setFederationDomain'],
      ['galley.yaml', 'federationDomain'],
      ['cargohold.yaml', 'federationDomain'],
    ] as const) {
      const path = join(configDir, file);
      writeFileSync(
        path,
        readFileSync(path, 'utf8').replace(new RegExp(`${key}: example.com`), `${key}: red.example.org`),
      );
    }
    // Two on the shipped config/, differing only in PORT, INTERNAL_PORT and STATE_DIR; one on CONFIG_DIR;
    // and config/b.example.com/, which federates with the first. The first goes alone: its
    // federator and DNS take the configured ports, which the others on the same ports then leave
    // (unless a backend outside this file holds them: then all of them take free ones).
    federatorPortFree = await portFree(8097);
    first = await start(join(root, 'a'));
    all.push(first);
    const started = await Promise.all([
      start(join(root, 'b')),
      start(join(root, 'c'), { CONFIG_DIR: configDir }),
      start(join(root, 'd'), { CONFIG_DIR: join('config', 'b.example.com') }),
    ]);
    all.push(...started);
    [second, own, remote] = started;
  });

  afterAll(() => {
    for (const run of begun)
      if (run.child.exitCode === null && run.child.signalCode === null) process.kill(-run.child.pid!, 'SIGKILL');
  });

  it('serves nothing before the migrations are applied', () => {
    for (const s of all) {
      expect(s.early.filter((status) => status !== 200)).toEqual([]);
    }
  });

  it('runs two backends on the default configuration side by side; each stores and returns assets', async () => {
    expect(first.assets).not.toBe(second.assets);
    await roundTripsAnAsset(first, 'example.com');
    await roundTripsAnAsset(second, 'example.com');
  });

  it('serves the public API on PORT with the configuration from CONFIG_DIR', async () => {
    const r = await call(`http://127.0.0.1:${own.port}`, '/api-version');
    expect(r.status).toBe(200);
    expect(r.body.domain).toBe('red.example.org');
    await roundTripsAnAsset(own, 'red.example.org');
  });

  it('federates config/ and config/b.example.com/: a user of one sees a user of the other', async () => {
    const [alice, bob] = await Promise.all([registered(first), registered(remote)]);
    const r = await call(`http://127.0.0.1:${first.port}`, `/v8/users/b.example.com/${bob.id}`, {
      headers: { authorization: `Bearer ${alice.token}` },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body.qualified_id).toEqual({ id: bob.id, domain: 'b.example.com' });
    const line = first.run.output.find((l) => l.startsWith('federator example.com: internal 127.0.0.1:'));
    expect(line).toBeDefined();
    const took = line!.startsWith('federator example.com: internal 127.0.0.1:8097,');
    if (!federatorPortFree) expect(took).toBe(false);
    // Another file's backend may take the port between the check and the start: then it holds it still.
    if (!took) expect(await portFree(8097)).toBe(false);
  });

  it('serves /i/status on INTERNAL_PORT only', async () => {
    expect((await call(`http://127.0.0.1:${own.internalPort}`, '/i/status')).status).toBe(200);
    expect((await call(`http://127.0.0.1:${own.port}`, '/i/status')).body).toEqual(wireError(404, 'no-endpoint'));
  });

  it('applied the D1 migrations under STATE_DIR', async () => {
    expect((await call(`http://127.0.0.1:${own.internalPort}`, '/i/federation/remotes')).status).toBe(200);
  });

  it('goes down whole when only its top process is signalled: no child left, every port free', async () => {
    const tree = processTree(own.run.child.pid!);
    expect(tree.map((p) => p.name)).toEqual(expect.arrayContaining(['workerd', 'radosgw', 'ceph-osd', 'ceph-mon']));
    own.run.child.kill('SIGTERM'); // npm's pid alone, as a process manager or a closed terminal does
    await own.run.exited;
    expect(
      await waitGone(
        tree.map((p) => p.pid),
        30_000,
      ),
    ).toEqual([]);
    const federator = own.run.output.map((l) => /^federator .*: internal [\d.]+:(\d+), external [\d.]+:(\d+)/.exec(l));
    const [, fedInternal, fedExternal] = federator.find((m) => m !== null) ?? [];
    const ports = [
      own.port,
      own.internalPort,
      Number(new URL(own.assets).port),
      Number(fedInternal),
      Number(fedExternal),
    ];
    expect(await Promise.all(ports.map(portFree))).toEqual(ports.map(() => true));
  });
});
