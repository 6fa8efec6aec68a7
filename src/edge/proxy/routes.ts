import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../api/app-env.js';
import { edgeFactsOf } from '../api/edge-facts.js';
import { endpoint, type Endpoint } from '../api/endpoint.js';
import { ApiError } from '../api/errors/api-error.js';
import { commonErrors } from '../api/errors/common.js';
import { proxyErrors } from '../api/errors/proxy.js';
import type { ProxySecret } from '../../shared/config/proxy-secrets.js';
import { callUpstream, passOn, passOnBody, upstreamQuery } from './forward.js';
import { proxySecret, upstreamBase, type Upstream } from './upstreams.js';

/**
 * The proxy: the apps reach third-party APIs through the backend, which adds its API key. Like
 * wire's, these routes are served but not part of the documented API.
 */

const passedOn = { 200: { description: "The third party's answer" } };
const secretOf = (c: Context<AppEnv>, name: ProxySecret) => proxySecret(c.env, c.get('config'), name);

/** A read-only API (GET; other methods get 405): the request goes to the upstream, with the key in `param`. */
function readOnlyApi(spec: {
  name: string;
  path: string;
  /** The upstream's path for the request's (the part of it from a prefix on, or a fixed path). */
  upstreamPath: (requestPath: string) => string;
  upstream: Upstream;
  secret: ProxySecret;
  param: string;
}): Endpoint {
  return endpoint(
    {
      name: spec.name,
      method: 'get',
      path: spec.path,
      hide: true,
      errors: [proxyErrors.badGateway],
      responses: passedOn,
    },
    async (c) => {
      const config = c.get('config');
      const path = spec.upstreamPath(edgeFactsOf(c.req.raw)?.path ?? c.req.path);
      const url = new URL(path, upstreamBase(config, spec.upstream));
      url.search = upstreamQuery(c, spec.param, secretOf(c, spec.secret));
      return passOn(await callUpstream(url));
    },
  );
}

const from = (prefix: string) => (path: string) => path.slice(path.indexOf(prefix));

const giphy = readOnlyApi({
  name: 'giphy-path',
  path: '/proxy/giphy/v1/gifs/*',
  upstreamPath: from('/v1/gifs'),
  upstream: 'giphyEndpoint',
  secret: 'giphy',
  param: 'api_key',
});
const youtube = readOnlyApi({
  name: 'youtube-path',
  path: '/proxy/youtube/v3/*',
  upstreamPath: from('/youtube/v3'),
  upstream: 'youtubeEndpoint',
  secret: 'youtube',
  param: 'key',
});
const mapsStatic = readOnlyApi({
  name: 'gmaps-static',
  path: '/proxy/googlemaps/api/staticmap',
  upstreamPath: () => '/maps/api/staticmap',
  upstream: 'googleMapsEndpoint',
  secret: 'googlemaps',
  param: 'key',
});
const mapsGeocode = readOnlyApi({
  name: 'gmaps-path',
  path: '/proxy/googlemaps/maps/api/geocode/*',
  upstreamPath: from('/maps/api/geocode'),
  upstream: 'googleMapsEndpoint',
  secret: 'googlemaps',
  param: 'key',
});

/** `POST /proxy/spotify/api/token`: Spotify's token exchange, with the backend's client credentials. */
const spotify = endpoint(
  {
    name: 'spotify',
    method: 'post',
    path: '/proxy/spotify/api/token',
    hide: true,
    errors: [proxyErrors.badGateway],
    responses: passedOn,
  },
  async (c) => {
    const headers = new Headers({ authorization: secretOf(c, 'spotify') });
    for (const h of ['accept', 'content-type']) {
      const value = c.req.header(h);
      if (value !== undefined) headers.set(h, value);
    }
    const url = new URL('/api/token', upstreamBase(c.get('config'), 'spotifyEndpoint'));
    return passOnBody(await callUpstream(url, { method: 'POST', headers, body: await c.req.arrayBuffer() }));
  },
);

const soundcloudQuery = { query: z.object({ url: z.string().min(1) }) };

/** `GET /proxy/soundcloud/resolve?url=`: what a SoundCloud link is. */
const soundcloudResolve = endpoint(
  {
    name: 'soundcloud-resolve',
    method: 'get',
    path: '/proxy/soundcloud/resolve',
    hide: true,
    request: soundcloudQuery,
    errors: [proxyErrors.badGateway],
    responses: passedOn,
  },
  async (c) => {
    const url = new URL('/resolve', upstreamBase(c.get('config'), 'soundcloudEndpoint'));
    url.search = new URLSearchParams({
      client_id: secretOf(c, 'soundcloud'),
      url: c.req.valid('query').url,
    }).toString();
    return passOnBody(await callUpstream(url));
  },
);

/**
 * `GET /proxy/soundcloud/stream?url=`: where a track's audio is. Only SoundCloud's own API URLs
 * are asked (with the key), and only their redirect to the audio is passed on.
 */
const soundcloudStream = endpoint(
  {
    name: 'soundcloud-stream',
    method: 'get',
    path: '/proxy/soundcloud/stream',
    hide: true,
    request: soundcloudQuery,
    errors: [commonErrors.badRequest, proxyErrors.badGateway],
    responses: { 302: { description: 'The location of the audio' } },
  },
  async (c) => {
    const base = upstreamBase(c.get('config'), 'soundcloudEndpoint');
    let asked: URL;
    try {
      asked = new URL(c.req.valid('query').url);
    } catch {
      throw new ApiError(commonErrors.badRequest, 'url must be an https URL of the SoundCloud API');
    }
    if (asked.protocol !== 'https:' || asked.hostname !== base.hostname)
      throw new ApiError(commonErrors.badRequest, 'url must be an https URL of the SoundCloud API');
    const url = new URL(asked.pathname, base);
    url.search = asked.search;
    url.searchParams.append('client_id', secretOf(c, 'soundcloud'));
    const res = await callUpstream(url);
    await res.body?.cancel();
    const location = res.headers.get('location');
    if (res.status !== 302 || location === null)
      throw new ApiError(proxyErrors.badGateway, `SoundCloud answered ${res.status}, not a redirect to the audio`);
    return c.body(null, 302, { location });
  },
);

export const proxyPublic: Endpoint[] = [
  giphy,
  youtube,
  mapsStatic,
  mapsGeocode,
  spotify,
  soundcloudResolve,
  soundcloudStream,
];
