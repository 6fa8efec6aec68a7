import { OpenAPIHono, type RouteConfig } from '@hono/zod-openapi';
import type { ApiVersion } from '../../shared/api-version.js';
import type { Config } from '../../shared/config/index.js';
import type { AppEnv } from './app-env.js';
import type { Deps } from './deps.js';
import { describeIssues } from './describe-issues.js';
import { edgeFactsOf } from './edge-facts.js';
import type { Endpoint } from './endpoint.js';
import { ApiError } from './errors/api-error.js';
import { commonErrors } from './errors/common.js';
import { installErrorHandling, type MethodIndex } from './errors/render.js';

/** `/users/{domain}/{id}` (or `/proxy/…/*`) → a pattern matching concrete paths, for 405 detection. */
function pathPattern(openApiPath: string): RegExp {
  const escaped = openApiPath
    .split(/\{[^}]+\}/)
    .map((s) => s.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\\*$/, '.*'))
    .join('[^/]+');
  return new RegExp(`^${escaped}/?$`);
}

const hasSeveralBodyTypes = (route: RouteConfig) => Object.keys(route.request?.body?.content ?? {}).length > 1;

export interface ApiAppOptions {
  config: Config;
  endpoints: readonly Endpoint[];
  /** The version this app serves; `undefined` for the unversioned internal API. */
  version: ApiVersion | undefined;
  /** The dependencies of a request with these bindings. */
  deps: (env: Env) => Deps;
}

/**
 * One Hono app serving a set of endpoints: validation failures become 400 `bad-request`,
 * thrown `ApiError`s become Wire's error body, anything else a logged 500.
 */
export function buildApiApp({ config, endpoints, version, deps }: ApiAppOptions): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) throw new ApiError(commonErrors.badRequest, describeIssues(result.error));
    },
    // Routes match the path the edge stripped of its version prefix.
    getPath: (req) => edgeFactsOf(req)?.path ?? new URL(req.url).pathname,
  });
  // What handlers read from the context is set by each route's own handler: a middleware for all
  // routes would be one more branch of every router lookup and one more layer of every dispatch.
  const withContext = (handler: Endpoint['handler'], path: string): Endpoint['handler'] => {
    const route = path.replace(/\{([^}]+)\}/g, ':$1');
    return (c, next) => {
      const edge = edgeFactsOf(c.req.raw);
      if (edge !== undefined) edge.route = route;
      c.set('config', config);
      c.set('deps', deps(c.env));
      c.set('apiVersion', version);
      c.set('zHost', edge?.zHost ?? '');
      c.set('requestId', edge?.requestId ?? crypto.randomUUID());
      c.set('self', edge?.identity);
      c.set('provider', edge?.provider);
      c.set('bot', edge?.bot);
      return handler(c, next);
    };
  };
  for (const endpoint of endpoints) {
    const e = { ...endpoint, handler: withContext(endpoint.handler, endpoint.route.path) };
    if (hasSeveralBodyTypes(e.route)) {
      // zod-openapi validates a required body against its JSON schema whatever the request's media
      // type: served with the body optional, only a JSON body meets the JSON schema and the handler
      // reads the others (and refuses a missing body). Documented as declared.
      const body = { ...e.route.request!.body!, required: false };
      app.openapi({ ...e.route, request: { ...e.route.request, body }, hide: true }, e.handler);
      app.openAPIRegistry.registerPath(e.route);
      continue;
    }
    if (e.route.method !== 'head') {
      app.openapi(e.route, e.handler);
      continue;
    }
    // Hono answers HEAD with the GET route of the path: register the handler as a hidden GET that
    // only HEAD may use (a GET goes on to the path's GET route, or to 405), and document the
    // route as HEAD.
    app.openapi({ ...e.route, method: 'get', hide: true }, (c, next) => {
      if (c.req.method === 'HEAD') return e.handler(c, next);
      return next().then(() => c.res) as ReturnType<typeof e.handler>;
    });
    app.openAPIRegistry.registerPath(e.route);
  }
  const methods: MethodIndex = endpoints.map((e) => ({
    method: e.route.method.toUpperCase(),
    pattern: pathPattern(e.route.path),
  }));
  installErrorHandling(app, methods);
  return app;
}
