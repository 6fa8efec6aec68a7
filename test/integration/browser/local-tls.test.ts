import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { Agent, fetch } from 'undici';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import WebSocket from 'ws';
import { npmStart, type NpmStart } from '../../../tools/lib/npm-start.js';
import { assetBody } from '../../helpers/assets.js';
import { npmStartOverTls } from '../../helpers/npm-start-tls.js';
import type { WebCertificate } from '../../helpers/web-certificate.js';

const WEB_ORIGIN = 'https://webapp.example.com';

/** `npm start` over TLS, as a person runs it to point a web app at it. */
describe('npm start with TLS_CERT and TLS_KEY', () => {
  let run: NpmStart;
  let cert: WebCertificate;
  let pub: string;
  let internal: string;
  let trusting: Agent;
  const https = (url: string, init: Parameters<typeof fetch>[1] = {}) => fetch(url, { ...init, dispatcher: trusting });

  beforeAll(async () => {
    const root = mkdtempSync(join(inject('tmpRoot'), 'tls-'));
    const started = await npmStartOverTls(root, ['localhost', 'nginz-https.example.com', 'nginz-ssl.example.com']);
    ({ run, cert } = started);
    const { port, internalPort } = started;
    trusting = new Agent({ connect: { ca: cert.pem } });
    await run.ready;
    pub = `https://127.0.0.1:${port}`;
    internal = `http://127.0.0.1:${internalPort}`;
  });

  afterAll(async () => {
    if (run !== undefined && run.child.exitCode === null) process.kill(-run.child.pid!, 'SIGKILL');
    await trusting?.close();
  });

  async function loggedIn(): Promise<{ token: string }> {
    const email = `tls-${crypto.randomUUID()}@example.com`;
    const json = { 'content-type': 'application/json' };
    const made = await fetch(`${internal}/i/users`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ name: 'T', email, password: 'secret-password' }),
    });
    expect(made.status).toBe(201);
    const login = await https(`${pub}/v8/login`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ email, password: 'secret-password' }),
    });
    expect(login.status).toBe(200);
    return { token: ((await login.json()) as { access_token: string }).access_token };
  }

  it('serves the public API over https, and says so', async () => {
    const r = await https(`${pub}/api-version`);
    expect(r.status).toBe(200);
    expect(run.output).toContain(`public    ${pub}   (try ${pub}/api-version)`);
  });

  it('serves the notification websocket over wss', async () => {
    const { token } = await loggedIn();
    const ws = new WebSocket(`${pub.replace('https', 'wss')}/await?access_token=${token}`, { ca: cert.pem });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    ws.close();
  });

  it('sends a browser to download assets over https from the local store, which allows the web origins', async () => {
    const { token } = await loggedIn();
    const { body, contentType } = assetBody(Uint8Array.of(1, 2, 3));
    const up = await https(`${pub}/v8/assets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
      body,
    });
    expect(up.status).toBe(201);
    const { key } = (await up.json()) as { key: string };
    const r = await https(`${pub}/v8/assets/example.com/${key}`, {
      headers: { authorization: `Bearer ${token}`, origin: WEB_ORIGIN },
      redirect: 'manual',
    });
    expect(r.status).toBe(302);
    const location = new URL(r.headers.get('location')!);
    expect(location.protocol).toBe('https:');
    expect(location.hostname).toBe('localhost');
    expect(run.output).toContainEqual(expect.stringContaining(`browser downloads ${location.origin}`));

    const download = await https(location.href, { headers: { origin: WEB_ORIGIN } });
    expect(download.status).toBe(200);
    expect(download.headers.get('access-control-allow-origin')).toBe(WEB_ORIGIN);
    expect([...new Uint8Array(await download.arrayBuffer())]).toEqual([1, 2, 3]);
    // After the backend's cross-origin redirect, a browser sends `Origin: null`.
    const redirected = await https(location.href, { headers: { origin: 'null' } });
    expect(redirected.headers.get('access-control-allow-origin')).toBe('null');
    const other = await https(location.href, { headers: { origin: 'https://webapp.example.org' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('refuses to start with a certificate but no key', async () => {
    const alone = npmStart({ STATE_DIR: join(inject('tmpRoot'), 'tls-refused'), TLS_CERT: cert.certPath });
    await expect(alone.ready).rejects.toThrow(/TLS_CERT and TLS_KEY go together/);
  });
});
