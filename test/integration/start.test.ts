import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { call, wireError } from '../helpers/http.js';

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
    [port, internalPort] = [await freePort(), await freePort()];
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

  it('applied the D1 migrations under STATE_DIR', async () => {
    expect((await call(`http://127.0.0.1:${internalPort}`, '/i/federation/remotes')).status).toBe(200);
  });
});
