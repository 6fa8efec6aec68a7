import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../api/app-env.js';
import { withEdgeFacts } from '../api/edge-facts.js';

/**
 * How the back office reaches the components: through their internal API, in-process, as wire's
 * stern calls brig and galley. The logic stays the components'; stern only translates.
 */
export type Intra = (c: Context<AppEnv>, method: string, pathAndQuery: string, body?: unknown) => Promise<Response>;

export function intraVia(internalApp: OpenAPIHono<AppEnv>): Intra {
  return (c, method, pathAndQuery, body) => {
    const req = new Request(`http://internal${pathAndQuery}`, {
      method,
      ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
    });
    const path = new URL(req.url).pathname;
    withEdgeFacts(req, { path, zHost: c.get('zHost'), requestId: c.get('requestId'), identity: undefined });
    return Promise.resolve(internalApp.fetch(req, c.env, c.executionCtx));
  };
}

/** A component's answer as the back office's (status, JSON body). */
export function passOn(res: Response): Response {
  const type = res.headers.get('content-type');
  return new Response(res.body, { status: res.status, headers: type === null ? {} : { 'content-type': type } });
}
