import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { sharedBackend } from '../helpers/backend.js';
import { call, wireError } from '../helpers/http.js';

const { publicUrl, internalUrl } = sharedBackend();

describe('ingresses', () => {
  it('serves /i/... only on the internal listener', async () => {
    expect((await call(internalUrl, '/i/status')).status).toBe(200);
    expect((await call(publicUrl, '/i/status')).body).toEqual(wireError(404, 'no-endpoint'));
    expect((await call(publicUrl, '/i/federation/remotes')).body).toEqual(wireError(404, 'no-endpoint'));
  });

  it('takes a request target in absolute form as its path, and refuses a target that is no URL', async () => {
    const { hostname, port, host } = new URL(publicUrl);
    // Node sends `path` as the request target as given: `GET http://host/i/status HTTP/1.1`.
    const send = (target: string, hostHeader = host) =>
      new Promise<{ status: number; body: unknown }>((resolve, reject) => {
        const req = request({ hostname, port, path: target, headers: { host: hostHeader } }, (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
        });
        req.on('error', reject);
        req.end();
      });
    // workerd alone answered these with a bare 500 before any worker ran; /i/ stays out of reach.
    for (const target of [`http://${host}/i/status`, 'http://elsewhere.example/i/status', `HTTP://${host}/i/status`])
      expect(await send(target), target).toEqual({ status: 404, body: wireError(404, 'no-endpoint') });
    expect(await send(`http://${host}/api-version`)).toMatchObject({ status: 200, body: { domain: 'example.com' } });
    // The target's authority stands, whatever Host says (RFC 9112 3.2.2).
    expect(await send(`http://${host}/api-version`, 'elsewhere.example')).toMatchObject({ status: 200 });
    for (const target of [
      '*',
      'api-version',
      'ftp://elsewhere.example/api-version',
      'http:/api-version',
      'http://u@h/',
    ])
      expect(await send(target), target).toEqual({ status: 400, body: wireError(400, 'bad-request') });
    // An origin-form target takes its authority from Host, which must be one.
    expect(await send('/api-version', 'elsewhere.example/i')).toEqual({
      status: 400,
      body: wireError(400, 'bad-request'),
    });
  });

  it('serves no public route on the internal listener', async () => {
    expect((await call(internalUrl, '/api-version')).body).toEqual(wireError(404, 'no-endpoint'));
  });

  it('takes no identity from Z-User, Z-Connection or Z-Client headers a client sends', async () => {
    const headers = { 'z-user': randomUUID(), 'z-connection': '1', 'z-client': 'abcdef', 'z-type': 'access' };
    expect((await call(publicUrl, '/v8/self', { headers })).body).toEqual(wireError(401, 'client-error'));
  });

  it('tags every response with a request id', async () => {
    expect((await call(publicUrl, '/api-version')).headers.get('request-id')).toMatch(/^[0-9a-f]{32}$/);
  });
});

describe('CORS', () => {
  it('allows the web apps of the external domain and exposes the nonce headers', async () => {
    const r = await call(publicUrl, '/api-version', { headers: { origin: 'https://webapp.example.com' } });
    expect(r.headers.get('access-control-allow-origin')).toBe('https://webapp.example.com');
    const exposed = r.headers.get('access-control-expose-headers')?.split(/,\s*/);
    expect(exposed).toEqual(expect.arrayContaining(['Request-Id', 'Location', 'Reply-Nonce']));
  });

  it('sets nothing for other origins', async () => {
    const r = await call(publicUrl, '/api-version', { headers: { origin: 'https://webapp.example.com.evil.org' } });
    expect(r.status).toBe(200);
    expect(r.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('answers preflight requests with 204 even on unknown versions', async () => {
    const r = await call(publicUrl, '/v9/conversations', {
      method: 'OPTIONS',
      headers: {
        origin: 'https://teams.example.com',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(r.status).toBe(204);
    expect(r.headers.get('access-control-allow-origin')).toBe('https://teams.example.com');
    expect(r.headers.get('access-control-allow-methods')).toMatch(/POST/);
    expect(r.headers.get('access-control-allow-headers')).toMatch(/authorization, content-type/);
  });

  // A browser drops the answer to a credentialed request (the zuid cookie) unless it allows credentials.
  const origin = 'https://webapp.example.com';
  it.each([
    ['POST', '/v7/access'],
    ['POST', '/v7/access/logout'],
    ['POST', '/v7/login'],
    ['POST', '/v7/register'],
    ['POST', '/v7/activate'],
    ['GET', '/v7/provider'],
    ['POST', '/sso/finalize-login'],
  ])('allows credentials on %s %s, and in its preflight', async (method, path) => {
    const preflight = await call(publicUrl, path, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'content-type' },
    });
    expect(preflight.headers.get('access-control-allow-credentials')).toBe('true');
    const body = method === 'GET' ? {} : { body: '{}' };
    const r = await call(publicUrl, path, { method, headers: { origin, 'content-type': 'application/json' }, ...body });
    expect(r.headers.get('access-control-allow-origin')).toBe(origin);
    expect(r.headers.get('access-control-allow-credentials')).toBe('true');
  });

  it('allows no credentials where a token, not a cookie, authenticates', async () => {
    const r = await call(publicUrl, '/v7/self', { headers: { origin } });
    expect(r.headers.get('access-control-allow-origin')).toBe(origin);
    expect(r.headers.get('access-control-allow-credentials')).toBeNull();
  });
});

describe('payload limit (512 KiB)', () => {
  const KiB = 1024;

  it('rejects a declared body over the limit before routing', async () => {
    const r = await call(publicUrl, '/v8/api-version', { method: 'POST', body: new Uint8Array(512 * KiB + 1) });
    expect(r.status).toBe(413);
    expect(r.body).toEqual(wireError(413, 'client-error'));
  });

  it('lets a body of exactly the limit through', async () => {
    const r = await call(publicUrl, '/v8/api-version', { method: 'POST', body: new Uint8Array(512 * KiB) });
    expect(r.body).toEqual(wireError(405, 'method-not-allowed'));
  });

  it('counts streamed bodies without a Content-Length', async () => {
    const chunk = new Uint8Array(64 * KiB);
    const body = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 9; i++) controller.enqueue(chunk);
        controller.close();
      },
    });
    const r = await call(publicUrl, '/v8/api-version', { method: 'POST', body, duplex: 'half' } as RequestInit);
    expect(r.status).toBe(413);
  });

  it('lets MLS commit bundles up to 16 MiB through (a large group’s), and no more', async () => {
    const path = '/v8/mls/commit-bundles';
    const under = await call(publicUrl, path, { method: 'POST', body: new Uint8Array(16 * 1024 * KiB) });
    expect(under.status).toBe(401);
    const over = await call(publicUrl, path, { method: 'POST', body: new Uint8Array(16 * 1024 * KiB + 1) });
    expect(over.status).toBe(413);
  });

  it('lets conversation messages (one ciphertext per recipient client) through beyond the default', async () => {
    for (const path of [
      `/v8/conversations/${randomUUID()}/otr/messages`,
      `/v8/conversations/example.com/${randomUUID()}/proteus/messages`,
    ]) {
      const r = await call(publicUrl, path, {
        method: 'POST',
        headers: { 'content-type': 'application/x-protobuf' },
        body: new Uint8Array(4096 * KiB),
      });
      expect(r.status, path).toBe(401);
    }
  });

  it('exempts asset uploads', async () => {
    const r = await call(publicUrl, '/v8/assets', { method: 'POST', body: new Uint8Array(1024 * KiB) });
    expect(r.status).not.toBe(413);
  });
});

describe('edge rate limit on /conversations/one2one (3000/min)', () => {
  it('allows a burst of 3000, refills at 50/s, and answers 429 with Retry-After', async () => {
    const path = `/v8/conversations/one2one/example.com/${randomUUID()}`;
    const started = Date.now();
    let allowed = 0;
    let refused: Response | undefined;
    for (let round = 0; refused === undefined && round < 200; round++) {
      const replies = await Promise.all(Array.from({ length: 50 }, () => fetch(publicUrl + path)));
      for (const r of replies) {
        if (r.status === 429) refused ??= r;
        else {
          expect(r.status).toBe(404); // the route itself comes with conversations
          allowed++;
        }
        if (r !== refused) await r.arrayBuffer();
      }
    }
    const elapsedSeconds = (Date.now() - started) / 1000;
    expect(allowed).toBeGreaterThanOrEqual(3000);
    expect(allowed).toBeLessThanOrEqual(3000 + Math.ceil(50 * elapsedSeconds) + 50);
    expect(refused).toBeDefined();
    expect(await refused!.json()).toEqual(wireError(429, 'too-many-requests'));
    expect(Number(refused!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // other paths are not limited by this zone
    expect((await call(publicUrl, '/api-version')).status).toBe(200);
  });
});
