import { browserOrigins } from '../../shared/config/browser-origins.js';
import type { NginzConfig } from '../../shared/config/schemas/nginz.js';

type NginxConf = NginzConfig['nginx_conf'];

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether nginz allows an origin (see browserOrigins). */
export function corsMatcher(conf: NginxConf): (origin: string) => boolean {
  let matcher = matchers.get(conf);
  if (matcher === undefined) matchers.set(conf, (matcher = buildMatcher(conf)));
  return matcher;
}

/** Built once per configuration (per isolate), not per request. */
const matchers = new WeakMap<NginxConf, (origin: string) => boolean>();

function buildMatcher(conf: NginxConf): (origin: string) => boolean {
  const origins = browserOrigins(conf);
  const exact = new Set(origins.exact.map((o) => o.toLowerCase()));
  const anyPort = origins.anyPortHosts.map((h) => new RegExp(`^https?://${escapeRegExp(h)}(:[0-9]{2,5})?$`, 'i'));
  return (origin) => exact.has(origin.toLowerCase()) || anyPort.some((r) => r.test(origin));
}

const EXPOSED_HEADERS = 'Request-Id, Location, Replay-Nonce, Reply-Nonce';
const ALLOWED_HEADERS =
  'DNT, X-Mx-ReqToken, Keep-Alive, User-Agent, X-Requested-With, If-Modified-Since, Cache-Control, Content-Type, Authorization';

/** Headers for an allowed origin's response (no headers at all for other origins). */
export function corsHeaders(origin: string, allowCredentials: boolean): Record<string, string> {
  const h: Record<string, string> = {
    'access-control-allow-origin': origin,
    'access-control-expose-headers': EXPOSED_HEADERS,
    vary: 'Origin',
  };
  if (allowCredentials) h['access-control-allow-credentials'] = 'true';
  return h;
}

/** The preflight answer nginz gives on every location: 204 with methods and headers. */
export function preflightHeaders(requestedHeaders: string | null): Record<string, string> {
  return {
    'access-control-allow-methods': 'GET, POST, PUT, DELETE, PATCH, HEAD, OPTIONS',
    'access-control-allow-headers': requestedHeaders ? `${requestedHeaders}, ${ALLOWED_HEADERS}` : ALLOWED_HEADERS,
    'access-control-max-age': '86400',
  };
}
