import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { brigErrors } from '../../api/errors/brig.js';
import { federationErrors } from '../../api/errors/federation.js';
import { json, jsonBody, qualifiedUserId } from '../../api/schemas/common.js';
import { database } from '../../db/client.js';
import { CLIENT_ID_PATTERN } from '../../../shared/client-id.js';
import { pubClient, pubClientJson } from './client-json.js';
import { clientStore } from './client-store.js';

export const localDomainOf = (c: Context<AppEnv>) => c.get('config').brig.optSettings.setFederationDomain;

/** Other backends' users are reached through federation, which is not enabled here. */
export function requireLocalDomain(c: Context<AppEnv>, domain: string): void {
  if (domain !== localDomainOf(c)) throw new ApiError(federationErrors.federationNotEnabled);
}

export const userParams = z.object({ domain: z.string(), uid: z.uuid() });

export const getUserClients = endpoint(
  {
    name: 'get-user-clients-qualified',
    method: 'get',
    path: '/users/{domain}/{uid}/clients',
    request: { params: userParams },
    errors: [federationErrors.federationNotEnabled],
    responses: { 200: { description: 'The user’s clients', ...json(z.array(pubClient)) } },
  },
  async (c) => {
    const { domain, uid } = c.req.valid('param');
    requireLocalDomain(c, domain);
    return c.json((await clientStore.list(database(c.env.DB), uid)).map(pubClientJson), 200);
  },
);

export const getUserClient = endpoint(
  {
    name: 'get-user-client-qualified',
    method: 'get',
    path: '/users/{domain}/{uid}/clients/{client}',
    request: { params: userParams.extend({ client: z.string().regex(CLIENT_ID_PATTERN) }) },
    errors: [brigErrors.userClientNotFound, federationErrors.federationNotEnabled],
    responses: { 200: { description: 'The client', ...json(pubClient) } },
  },
  async (c) => {
    const { domain, uid, client } = c.req.valid('param');
    requireLocalDomain(c, domain);
    const row = await clientStore.get(database(c.env.DB), uid, client);
    if (row === undefined) throw new ApiError(brigErrors.userClientNotFound);
    return c.json(pubClientJson(row), 200);
  },
);

export const listUsersClients = endpoint(
  {
    name: 'list-clients-bulk@v2',
    method: 'post',
    path: '/users/list-clients',
    from: 2,
    request: jsonBody(z.object({ qualified_users: z.array(qualifiedUserId).min(1).max(500) })),
    responses: {
      200: {
        description: 'Clients per domain and user (unreachable domains are left out)',
        ...json(z.object({ qualified_user_map: z.record(z.string(), z.record(z.string(), z.array(pubClient))) })),
      },
    },
  },
  async (c) => {
    const domain = localDomainOf(c);
    const local = c.req
      .valid('json')
      .qualified_users.filter((u) => u.domain === domain)
      .map((u) => u.id);
    const map: Record<string, z.infer<typeof pubClient>[]> = Object.fromEntries(local.map((u) => [u, []]));
    for (const row of await clientStore.listMany(database(c.env.DB), local)) map[row.user]!.push(pubClientJson(row));
    return c.json({ qualified_user_map: local.length === 0 ? {} : { [domain]: map } }, 200);
  },
);
