import { ApiError } from '../api/errors/api-error.js';
import { commonErrors } from '../api/errors/common.js';
import { errorResponse, logUnexpected } from '../api/errors/render.js';
import { withEdgeFacts, type EdgeFacts } from '../api/edge-facts.js';
import { countRequest } from '../metrics/counts.js';
import { queriesSoFar } from '../db/query-count.js';
import { tocPage } from '../docs/toc.js';
import { uiAsset } from '../docs/ui-assets.js';
import { MAILBOX_PATH, serveMailbox } from '../brig/face.js';
import { sternAuthorized, sternEnabled } from '../stern/face.js';
import type { Runtime } from '../api/runtime.js';
import { zauthKeys } from '../auth/keys.js';
import { type Caller, tokenReaches } from './token-acl.js';
import { authenticate } from './authenticate.js';
import { oauthCaller } from './oauth.js';
import { oauthErrors } from '../api/errors/oauth.js';
import { limitBody } from './body-limit.js';
import { corsHeaders, corsMatcher, preflightHeaders } from './cors.js';
import { withHeaders, zHostOf } from './forward.js';
import { findLocation } from './locations.js';
import { takeToken } from './rate-limit.js';
import { splitVersion, servedWhenDisabled } from './version-prefix.js';

const unsupported = (word: string) =>
  errorResponse(new ApiError(commonErrors.unsupportedVersion, `Version ${word} is not supported`));
const internalUnversioned = () =>
  errorResponse(
    new ApiError(commonErrors.unsupportedVersion, 'Internal APIs (`/i/...`) are not under version control'),
  );

/** A request's id (nginz's `$request_id`): in its `Request-Id` header and its log lines. */
export function newRequestId(): string {
  return crypto.randomUUID().replaceAll('-', '');
}

/** An ingress: serves a request the worker took, under the id it was given. */
type Ingress = (req: Request, env: Env, ctx: ExecutionContext, rt: Runtime, requestId: string) => Promise<Response>;

/**
 * Counts a request once answered, under the route that served it (see EdgeFacts.route): call it
 * with the response; `facts` keeps the facts the route will name itself in.
 */
function counter(req: Request, env: Env, ctx: ExecutionContext) {
  const started = Date.now();
  let facts: EdgeFacts | undefined;
  const counted = (res: Response) => {
    const seconds = (Date.now() - started) / 1000;
    const handler = facts?.route ?? 'N/A';
    countRequest(env, ctx, { handler, method: req.method, status: res.status, seconds, ...queriesSoFar() });
    return res;
  };
  counted.facts = (f: EdgeFacts) => (facts = f);
  return counted;
}

/** The caller a rate-limit bucket is keyed by: the authenticated user, else the client address. */
function callerOf(req: Request, key: 'zuser' | 'addr', user: string | undefined): string {
  return (key === 'zuser' ? user : undefined) ?? req.headers.get('cf-connecting-ip') ?? 'unknown';
}

/**
 * The public ingress, nginz's job: CORS, Z-Host, payload limit, rate limits, then the version
 * prefix decides which version's app serves the request (the version check precedes routing).
 */
export const servePublic: Ingress = async (req, env, ctx, rt, requestId) => {
  const counted = counter(req, env, ctx);
  const conf = rt.config.nginz.nginx_conf;
  const url = new URL(req.url);
  const split = splitVersion(url.pathname);
  const path = 'path' in split ? split.path : url.pathname;
  const location = findLocation(conf, path);
  const origin = req.headers.get('origin');
  const cors =
    origin !== null && corsMatcher(conf)(origin)
      ? corsHeaders(origin, location?.allow_credentials ?? false)
      : undefined;
  const finish = (res: Response) => withHeaders(counted(res), requestId, cors);
  try {
    if (req.method === 'OPTIONS')
      return finish(
        new Response(null, {
          status: 204,
          headers: preflightHeaders(req.headers.get('access-control-request-headers')),
        }),
      );

    const caller = await authenticate(req, url, await zauthKeys(env, rt.config.brig.zauth.keyIndex));
    const zauth = caller.user;
    const scoped: Caller | undefined =
      caller.provider !== undefined
        ? { kind: 'provider' }
        : caller.bot !== undefined
          ? { kind: 'bot' }
          : zauth === undefined
            ? undefined
            : { kind: 'user', legalhold: zauth.legalhold === true };
    if (scoped !== undefined && !tokenReaches(scoped, path))
      return finish(errorResponse(new ApiError(commonErrors.tokenScope)));
    const oauth = zauth === undefined ? await oauthCaller(req, env, rt.config, location) : undefined;
    if (oauth === 'insufficient-scope') return finish(errorResponse(new ApiError(oauthErrors.insufficientScope)));
    const identity = zauth ?? oauth;
    const zoneName = location?.specific_user_rate_limit;
    const zone = zoneName === undefined ? undefined : conf.rate_limit_zones[zoneName];
    if (zoneName !== undefined && zone !== undefined) {
      const decision = await takeToken(env, zoneName, zone, callerOf(req, zone.key, identity?.user));
      if (!decision.allowed) {
        const spec = { ...commonErrors.tooManyRequests, status: conf.rate_limit_status };
        return finish(errorResponse(new ApiError(spec), { 'retry-after': String(decision.retryAfterSeconds) }));
      }
    }

    const limited = await limitBody(req, location?.max_body_size ?? conf.default_client_max_body_size);
    if (limited === 'too-large') return finish(errorResponse(new ApiError(commonErrors.payloadTooLarge)));
    if (limited === 'malformed')
      return finish(errorResponse(new ApiError(commonErrors.badRequest, 'The request body is not valid gzip')));

    switch (split.kind) {
      case 'versioned-internal':
        return finish(internalUnversioned());
      case 'unknown-version':
        return finish(unsupported(split.word));
      case 'versioned': {
        if (!rt.enabled.has(split.version) && !servedWhenDisabled(split.path))
          return finish(unsupported(`v${split.version}`));
        break;
      }
      case 'unversioned': {
        if (split.path === '/api/swagger-ui') return finish(tocPage());
        const asset = uiAsset(split.path);
        if (asset !== undefined) return finish(asset);
        const mail = split.path === MAILBOX_PATH ? await serveMailbox(req, url, env, rt.config) : undefined;
        if (mail !== undefined) return finish(mail);
      }
    }
    const version = split.kind === 'versioned' ? split.version : 0;
    const facts = counted.facts({ path, zHost: zHostOf(req), requestId, identity });
    if (caller.provider !== undefined) facts.provider = caller.provider;
    if (caller.bot !== undefined) facts.bot = caller.bot;
    const forwarded = withEdgeFacts(limited, facts);
    return finish(await rt.versionApp(version).fetch(forwarded, env, ctx));
  } catch (err) {
    logUnexpected(err);
    return finish(errorResponse(new ApiError(commonErrors.internalServerError)));
  }
};

/** The internal ingress: unversioned `/i/...` routes and the federation API, never reachable from the public one. */
export const serveInternal: Ingress = async (req, env, ctx, rt, requestId) => {
  const counted = counter(req, env, ctx);
  const url = new URL(req.url);
  const split = splitVersion(url.pathname);
  const finish = (res: Response) => withHeaders(counted(res), requestId);
  try {
    if (split.kind === 'versioned-internal') return finish(internalUnversioned());
    if (split.kind !== 'unversioned') return finish(errorResponse(new ApiError(commonErrors.noEndpoint)));
    // `/i/...` and the federation API (`/federation/{component}/{rpc}`, called by the federator);
    // anything else is the back office's, when it is on.
    const internal = /^\/(i|federation)(\/|$)/.test(split.path);
    if (!internal && !sternEnabled(env)) return finish(errorResponse(new ApiError(commonErrors.noEndpoint)));
    if (!internal && !sternAuthorized(req, env))
      return finish(
        errorResponse(new ApiError(commonErrors.basicAuthRequired), { 'www-authenticate': 'Basic realm="stern"' }),
      );
    const facts = counted.facts({ path: split.path, zHost: zHostOf(req), requestId, identity: undefined });
    const forwarded = withEdgeFacts(req, facts);
    return finish(await (internal ? rt.internalApp : rt.sternApp).fetch(forwarded, env, ctx));
  } catch (err) {
    logUnexpected(err);
    return finish(errorResponse(new ApiError(commonErrors.internalServerError)));
  }
};
