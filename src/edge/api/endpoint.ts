import { createRoute, z, type RouteConfig, type RouteHandler } from '@hono/zod-openapi';
import type { ApiVersion } from '../../shared/api-version.js';
import type { ErrorSpec } from './errors/api-error.js';
import type { AppEnv } from './app-env.js';
import { ApiError } from './errors/api-error.js';
import { commonErrors } from './errors/common.js';
import { readingNullAsAbsent } from './null-as-absent.js';

/** The OpenAPI security scheme of routes that need an access token. */
export const ZAUTH_SCHEME = 'ZAuth';

/** Wire's error body, as documented on every declared error. */
const errorBodySchema = z.object({ code: z.int(), label: z.string(), message: z.string() }).openapi('Error');

interface EndpointMeta {
  /** Stable name of the route (the OpenAPI operationId), e.g. `get-api-version`. */
  name: string;
  /** First version the route exists in (default: v0). */
  from?: ApiVersion;
  /** First version the route no longer exists in (wire-server's `Until`). */
  until?: ApiVersion;
  /** The catalogue errors the handler may raise; they are listed in the generated docs. */
  errors?: readonly ErrorSpec[];
  /**
   * `user` (default for public routes): the caller must present a valid access token; the handler
   * reads it with `self(c)`. `none` (default for internal `/i/...` routes): no token needed.
   * `provider`: a service provider's token (`provider(c)` reads it); `bot`: a bot's (`bot(c)`).
   */
  auth?: 'user' | 'provider' | 'bot' | 'none';
}

/** A route declared once: path, method, version range, schemas, errors, bound to its handler. */
export interface Endpoint {
  readonly name: string;
  readonly from: ApiVersion;
  readonly until: ApiVersion | undefined;
  readonly route: RouteConfig;
  // The handler's input types were checked against the route at declaration.
  readonly handler: RouteHandler<RouteConfig, AppEnv>;
}

function documentErrors(route: RouteConfig, errors: readonly ErrorSpec[]): RouteConfig['responses'] {
  const responses = { ...route.responses };
  const byStatus = new Map<number, ErrorSpec[]>();
  for (const e of errors) byStatus.set(e.status, [...(byStatus.get(e.status) ?? []), e]);
  for (const [status, specs] of byStatus) {
    const description = specs.map((s) => `\`${s.label}\`: ${s.message}`).join('; ');
    responses[status] = {
      description,
      content: { 'application/json': { schema: errorBodySchema } },
    };
  }
  return responses;
}

const isJsonMediaType = (mediaType: string) => /^application\/([a-z-.]+\+)?json/i.test(mediaType);

/** The route's JSON request bodies read a null in an optional field as its absence, as wire-server does. */
function nullTolerantBodies(request: RouteConfig['request']): RouteConfig['request'] {
  const body = request?.body;
  if (body === undefined) return request;
  const content = Object.fromEntries(
    Object.entries(body.content).map(([mediaType, media]) =>
      isJsonMediaType(mediaType) && media !== undefined && 'schema' in media && media.schema instanceof z.ZodType
        ? [mediaType, { ...media, schema: readingNullAsAbsent(media.schema) }]
        : [mediaType, media],
    ),
  );
  return { ...request, body: { ...body, content } };
}

export function endpoint<const R extends RouteConfig>(
  spec: EndpointMeta & R,
  handler: RouteHandler<R, AppEnv>,
): Endpoint {
  const { name, from = 0, until, errors = [], auth, ...route } = spec;
  const kind = auth ?? (route.path.startsWith('/i/') ? 'none' : 'user');
  const needsUser = kind === 'user';
  const config = createRoute({
    ...route,
    request: nullTolerantBodies(route.request),
    operationId: name,
    ...(kind !== 'none' ? { security: [{ [ZAUTH_SCHEME]: [] }] } : {}),
    responses: documentErrors(route as RouteConfig, kind !== 'none' ? [...errors, commonErrors.unauthorized] : errors),
  } as RouteConfig);
  const inner = handler as unknown as RouteHandler<RouteConfig, AppEnv>;
  const guarded: RouteHandler<RouteConfig, AppEnv> = (c, next) => {
    if (needsUser && c.get('self') === undefined) throw new ApiError(commonErrors.unauthorized);
    if (kind === 'provider' && c.get('provider') === undefined) throw new ApiError(commonErrors.unauthorized);
    if (kind === 'bot' && c.get('bot') === undefined) throw new ApiError(commonErrors.unauthorized);
    return inner(c, next);
  };
  return { name, from, until, route: config, handler: guarded };
}

export function existsIn(e: Endpoint, v: ApiVersion): boolean {
  return v >= e.from && (e.until === undefined || v < e.until);
}
