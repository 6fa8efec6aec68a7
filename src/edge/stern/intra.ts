import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../api/app-env.js';
import { withEdgeFacts } from '../api/edge-facts.js';

/** The public API version the back office speaks when it acts as a user. */
const STERN_API_VERSION = 8;

/**
 * How the back office reaches the components, in-process, as wire's stern calls brig and galley:
 * their internal API, or their public one as a user (wire's stern sends `Z-User`). The logic
 * stays the components'; stern only translates.
 */
export interface Intra {
  internal(c: Context<AppEnv>, method: string, pathAndQuery: string, body?: unknown): Promise<Response>;
  asUser(c: Context<AppEnv>, user: string, method: string, pathAndQuery: string, body?: unknown): Promise<Response>;
}

function request(url: string, method: string, body: unknown): Request {
  return new Request(url, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });
}

export function intraVia(internalApp: OpenAPIHono<AppEnv>, publicApp: (version: number) => OpenAPIHono<AppEnv>): Intra {
  return {
    internal: (c, method, pathAndQuery, body) => {
      const req = request(`http://internal${pathAndQuery}`, method, body);
      const path = new URL(req.url).pathname;
      withEdgeFacts(req, { path, zHost: c.get('zHost'), requestId: c.get('requestId'), identity: undefined });
      return Promise.resolve(internalApp.fetch(req, c.env, c.executionCtx));
    },
    asUser: (c, user, method, pathAndQuery, body) => {
      const req = request(`http://internal/v${STERN_API_VERSION}${pathAndQuery}`, method, body);
      const path = new URL(`http://internal${pathAndQuery}`).pathname;
      const identity = { user, connection: '0' };
      withEdgeFacts(req, { path, zHost: c.get('zHost'), requestId: c.get('requestId'), identity });
      return Promise.resolve(publicApp(STERN_API_VERSION).fetch(req, c.env, c.executionCtx));
    },
  };
}

/** A component's answer as the back office's (status, JSON body). */
export function passOn(res: Response): Response {
  const type = res.headers.get('content-type');
  return new Response(res.body, { status: res.status, headers: type === null ? {} : { 'content-type': type } });
}

/** The account with this email (wire's UserAccount), if any. */
export async function accountByEmail(c: Context<AppEnv>, intra: Intra, email: string) {
  const res = await intra.internal(c, 'GET', `/i/users?${new URLSearchParams({ email })}`);
  return ((await res.json()) as Array<{ id: string; team?: string }>)[0];
}
