import { createRoute, z, type RouteConfig, type RouteHandler } from '@hono/zod-openapi';
import type { ApiVersion } from '../../shared/api-version.js';
import type { ErrorSpec } from './errors/api-error.js';
import type { AppEnv } from './app-env.js';

/** Wire's error body, as documented on every declared error. */
export const errorBodySchema = z
  .object({ code: z.int(), label: z.string(), message: z.string() })
  .openapi('Error');

interface EndpointMeta {
  /** Stable name of the route (the OpenAPI operationId), e.g. `get-api-version`. */
  name: string;
  /** First version the route exists in (default: v0). */
  from?: ApiVersion;
  /** First version the route no longer exists in (wire-server's `Until`). */
  until?: ApiVersion;
  /** The catalogue errors the handler may raise; they are listed in the generated docs. */
  errors?: readonly ErrorSpec[];
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

export function endpoint<const R extends RouteConfig>(
  spec: EndpointMeta & R,
  handler: RouteHandler<R, AppEnv>,
): Endpoint {
  const { name, from = 0, until, errors = [], ...route } = spec;
  const config = createRoute({
    ...route,
    operationId: name,
    responses: documentErrors(route as RouteConfig, errors),
  } as RouteConfig);
  return {
    name,
    from,
    until,
    route: config,
    handler: handler as unknown as RouteHandler<RouteConfig, AppEnv>,
  };
}

export function existsIn(e: Endpoint, v: ApiVersion): boolean {
  return v >= e.from && (e.until === undefined || v < e.until);
}
