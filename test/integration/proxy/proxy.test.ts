import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEditedBackend, type TestBackend } from '../../helpers/backend.js';
import { call, wireError } from '../../helpers/http.js';
import { createUser, type TestUser } from '../../helpers/users.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

/** A third party on loopback: records every request, answers as `answer` says. */
async function thirdParty(answer: (seen: Seen) => Answer) {
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const s = { method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString() };
      seen.push(s);
      const a = answer(s);
      res.writeHead(a.status, a.headers ?? {}).end(a.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { seen, port: (server.address() as AddressInfo).port, close: () => server.close() };
}

const SECRETS = `# the operator's keys
secrets {
  giphy = "giphy-key"
  youtube = "youtube-key"
  googlemaps = "maps-key"
  soundcloud = "soundcloud-id"
  spotify = "Basic c3BvdGlmeTpzZWNyZXQ="
}
`;

describe('proxy: third-party APIs with the backend’s keys', () => {
  let b: TestBackend;
  let upstream: Awaited<ReturnType<typeof thirdParty>>;
  let user: TestUser;
  let flaky = 0;
  beforeAll(async () => {
    upstream = await thirdParty((s): Answer => {
      if (s.url.startsWith('/v1/gifs/flaky') && flaky++ < 2) return { status: 502 };
      if (s.url.startsWith('/v1/gifs') || s.url.startsWith('/maps') || s.url.startsWith('/youtube'))
        return {
          status: 200,
          headers: { 'content-type': 'application/json', 'x-upstream': 'yes' },
          body: '{"data":[]}',
        };
      if (s.url === '/api/token')
        return { status: 200, headers: { 'content-type': 'application/json' }, body: '{"access_token":"t"}' };
      if (s.url.startsWith('/resolve'))
        return { status: 404, headers: { 'content-type': 'application/json', 'x-other': '1' }, body: '{"errors":[]}' };
      if (s.url.startsWith('/tracks/1/stream'))
        return { status: 302, headers: { location: 'https://cf-media.example/audio.mp3' } };
      return { status: 200, body: 'not a redirect' };
    });
    const dir = mkdtempSync(join(tmpdir(), 'proxy-'));
    writeFileSync(join(dir, 'secrets.config'), SECRETS);
    const here = { host: '127.0.0.1', port: upstream.port };
    b = await startEditedBackend([
      ['proxy.yaml', ['secretsConfig'], join(dir, 'secrets.config')],
      ['proxy.yaml', ['disableTlsForTest'], true],
      ...(
        ['giphyEndpoint', 'youtubeEndpoint', 'googleMapsEndpoint', 'spotifyEndpoint', 'soundcloudEndpoint'] as const
      ).map((k) => ['proxy.yaml', [k], here] as [string, string[], unknown]),
    ]);
    user = await createUser(b.publicUrl, b.internalUrl);
  });
  afterAll(async () => {
    await b?.stop();
    upstream?.close();
  });

  const get = (path: string, token = user.token, method = 'GET') =>
    call(b.publicUrl, path, {
      method,
      redirect: 'manual',
      headers: { authorization: `Bearer ${token}`, cookie: 'zuid=secret' },
    });
  const last = () => upstream.seen.at(-1)!;

  it('passes giphy, youtube and maps requests on with the key first and without the client’s token or headers', async () => {
    const r = await get('/v8/proxy/giphy/v1/gifs/search?q=cats&access_token=mine&limit=2');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ data: [] });
    expect(r.headers.get('x-upstream')).toBe('yes');
    expect(last().url).toBe('/v1/gifs/search?api_key=giphy-key&q=cats&limit=2');
    expect(last().headers.authorization).toBeUndefined();
    expect(last().headers.cookie).toBeUndefined();
    await get('/v8/proxy/youtube/v3/videos?id=1');
    expect(last().url).toBe('/youtube/v3/videos?key=youtube-key&id=1');
    await get('/v8/proxy/googlemaps/api/staticmap?center=Berlin');
    expect(last().url).toBe('/maps/api/staticmap?key=maps-key&center=Berlin');
    await get('/v8/proxy/googlemaps/maps/api/geocode/json?address=Berlin');
    expect(last().url).toBe('/maps/api/geocode/json?key=maps-key&address=Berlin');
  });

  it('asks again when the third party answers 502', async () => {
    const before = upstream.seen.length;
    expect((await get('/v8/proxy/giphy/v1/gifs/flaky')).status).toBe(200);
    expect(upstream.seen.length - before).toBe(3);
  });

  it('refuses other methods, callers without a token, and paths it does not proxy', async () => {
    expect(await get('/v8/proxy/giphy/v1/gifs/search', user.token, 'POST')).toMatchObject({
      status: 405,
      body: wireError(405, 'method-not-allowed'),
    });
    expect((await call(b.publicUrl, '/v8/proxy/giphy/v1/gifs/search')).status).toBe(401);
    expect((await get('/v8/proxy/giphy/v2/stickers')).status).toBe(404);
  });

  it('exchanges spotify tokens with the backend’s client credentials', async () => {
    const r = await call(b.publicUrl, '/v8/proxy/spotify/api/token', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${user.token}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: 'grant_type=authorization_code&code=abc',
    });
    expect(r).toMatchObject({ status: 200, body: { access_token: 't' } });
    expect(last()).toMatchObject({
      method: 'POST',
      url: '/api/token',
      body: 'grant_type=authorization_code&code=abc',
      headers: { authorization: 'Basic c3BvdGlmeTpzZWNyZXQ=', accept: 'application/json' },
    });
  });

  it('resolves soundcloud links and hands out only the stream’s redirect', async () => {
    const link = 'https://soundcloud.com/artist/track';
    const resolved = await get(`/v8/proxy/soundcloud/resolve?url=${encodeURIComponent(link)}`);
    expect(resolved).toMatchObject({ status: 404, body: { errors: [] } });
    expect(resolved.headers.get('x-other')).toBeNull();
    expect(last().url).toBe(`/resolve?client_id=soundcloud-id&url=${encodeURIComponent(link)}`);

    const stream = (url: string) => get(`/v8/proxy/soundcloud/stream?url=${encodeURIComponent(url)}`);
    const r = await stream('https://127.0.0.1/tracks/1/stream?secret_token=s');
    expect(r.status).toBe(302);
    expect(r.headers.get('location')).toBe('https://cf-media.example/audio.mp3');
    expect(last().url).toBe('/tracks/1/stream?secret_token=s&client_id=soundcloud-id');
    // only the SoundCloud API, over https
    for (const url of ['https://evil.example/tracks/1/stream', 'http://127.0.0.1/tracks/1/stream', 'not a url'])
      expect(await stream(url)).toMatchObject({ status: 400, body: wireError(400, 'bad-request') });
    expect(await stream('https://127.0.0.1/tracks/2/stream')).toMatchObject({
      status: 502,
      body: wireError(502, 'bad-gateway'),
    });
  });
});
