import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { fetchRedirect, getAsset, uploadAsset } from '../helpers/assets.js';
import { call, postJson, wireError } from '../helpers/http.js';

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** Runs `npm start` as an operator would, with the documented environment overrides. */
describe('npm start', () => {
  let child: ChildProcess;
  let port: number;
  let internalPort: number;
  let storePort: number;
  const output: string[] = [];

  beforeAll(async () => {
    const root = mkdtempSync(join(inject('tmpRoot'), 'start-'));
    const configDir = join(root, 'config');
    cpSync('config', configDir, { recursive: true });
    const domainKeys: [string, string][] = [
      ['brig.yaml', 'setFederationDomain'],
      ['galley.yaml', 'federationDomain'],
      ['cargohold.yaml', 'federationDomain'],
    ];
    for (const [file, key] of domainKeys) {
      const path = join(configDir, file);
      writeFileSync(path, readFileSync(path, 'utf8').replace(new RegExp(`${key}: example.com`), `${key}: red.example.org`));
    }
    [port, internalPort, storePort] = [await freePort(), await freePort(), await freePort()];
    // Its own local object store, on a free port instead of the shipped 7480.
    const cargohold = join(configDir, 'cargohold.yaml');
    writeFileSync(cargohold, readFileSync(cargohold, 'utf8').replace('http://127.0.0.1:7480', `http://127.0.0.1:${storePort}`));
    child = spawn('npm', ['start'], {
      env: { ...process.env, PORT: String(port), INTERNAL_PORT: String(internalPort), CONFIG_DIR: configDir, STATE_DIR: join(root, 'state') },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    createInterface({ input: child.stderr! }).on('line', (l) => output.push(l));
    await new Promise<void>((resolve, reject) => {
      createInterface({ input: child.stdout! }).on('line', (l) => {
        output.push(l);
        if (l === 'ready') resolve();
      });
      child.on('exit', (code) => reject(new Error(`npm start exited with ${code}: ${output.join('\n')}`)));
    });
  });

  afterAll(() => {
    if (child.pid) process.kill(-child.pid, 'SIGTERM');
  });

  it('serves the public API on PORT with the configuration from CONFIG_DIR', async () => {
    const r = await call(`http://127.0.0.1:${port}`, '/api-version');
    expect(r.status).toBe(200);
    expect(r.body.domain).toBe('red.example.org');
  });

  it('serves /i/status on INTERNAL_PORT only', async () => {
    expect((await call(`http://127.0.0.1:${internalPort}`, '/i/status')).status).toBe(200);
    expect((await call(`http://127.0.0.1:${port}`, '/i/status')).body).toEqual(wireError(404, 'no-endpoint'));
  });

  it('brings up local object storage: an asset goes in and comes back from it', async () => {
    const pub = `http://127.0.0.1:${port}`;
    const email = `start-${Date.now()}@example.com`;
    expect((await postJson(`http://127.0.0.1:${internalPort}`, '/i/users', { name: 'S', email, password: 'secret-password' })).status).toBe(201);
    const login = await postJson(pub, '/v8/login', { email, password: 'secret-password' });
    const up = await uploadAsset(pub, login.body.access_token, Uint8Array.of(7, 8, 9));
    expect(up.status).toBe(201);
    const r = await getAsset(pub, `/v8/assets/red.example.org/${up.body.key}`, login.body.access_token);
    expect(new URL(r.headers.get('location')!).port).toBe(String(storePort));
    expect([...(await fetchRedirect(r)).bytes]).toEqual([7, 8, 9]);
  });

  it('applied the D1 migrations under STATE_DIR', async () => {
    expect((await call(`http://127.0.0.1:${internalPort}`, '/i/federation/remotes')).status).toBe(200);
  });
});
