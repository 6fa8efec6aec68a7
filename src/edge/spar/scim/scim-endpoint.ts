import { type RouteConfig, type RouteHandler, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { endpoint, type Endpoint } from '../../api/endpoint.js';
import { scimErrors, scimFailure } from './scim-error.js';

/**
 * A route under `/scim/v2`: no access token (SCIM clients present a SCIM token or nothing), and
 * every failure answered in SCIM's error format.
 */
export function scimEndpoint<const R extends RouteConfig>(
  spec: { name: string } & R,
  handler: (c: Parameters<RouteHandler<R, AppEnv>>[0]) => Promise<Response>,
): Endpoint {
  const inner = handler as unknown as (c: Context<AppEnv>) => Promise<Response>;
  return endpoint({ ...spec, auth: 'none' }, (async (c: Context<AppEnv>) => {
    try {
      return await inner(c);
    } catch (err) {
      return scimFailure(err);
    }
  }) as unknown as RouteHandler<R, AppEnv>);
}

/** A SCIM request's JSON body (`application/scim+json` or `application/json`). */
export async function scimBody(c: Context<AppEnv>): Promise<unknown> {
  try {
    return JSON.parse(await c.req.text());
  } catch {
    throw scimErrors.badRequest('invalidSyntax', 'The body is not JSON');
  }
}

/** A SCIM response in the route's docs. */
export const scimResponse = (description: string) => ({
  description,
  content: { 'application/scim+json': { schema: z.unknown() } },
});

/** A ListResponse of all the resources (no paging: lists here hold a handful). */
export const scimList = (resources: readonly unknown[]) => ({
  schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'],
  Resources: resources,
  totalResults: resources.length,
  itemsPerPage: resources.length,
  startIndex: 1,
});
