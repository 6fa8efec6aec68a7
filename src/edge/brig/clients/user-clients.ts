import type { Config } from '../../../shared/config/index.js';
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { brigErrors } from '../../api/errors/brig.js';
import { FEDERATED_CALL_ERRORS } from '../../api/errors/federation.js';
import { json, jsonBody, qualifiedUserId } from '../../api/schemas/common.js';
import { groupBy } from '../../../shared/group-by.js';
import { database, type Db } from '../../db/client.js';
import { FederatorClient, unlessUnreachable } from '../../federation/client.js';
import { CLIENT_ID_PATTERN } from '../../../shared/client-id.js';
import { pubClient, pubClientJson } from './client-json.js';
import { clientStore } from './client-store.js';

export const localDomainOf = (c: Context<AppEnv>) => c.get('config').brig.optSettings.setFederationDomain;

export const userClientMap = z.record(z.string(), z.array(pubClient));
type UserClientMap = z.infer<typeof userClientMap>;

/** The public view of these users' clients, every user present (local, or from their own backend). */
async function clientsOfUsers(c: Context<AppEnv>, domain: string, users: readonly string[]): Promise<UserClientMap> {
  if (domain !== localDomainOf(c))
    return FederatorClient.of(c.get('config')).call(domain, 'brig', 'get-user-clients', { users }, userClientMap);
  return localClientsOf(database(c.env.DB), users);
}

/** The client ids of users of another backend, as it lists them. */
export async function remoteClientIdsOf(
  config: Config,
  domain: string,
  users: readonly string[],
): Promise<Record<string, string[]>> {
  const map = await FederatorClient.of(config).call(domain, 'brig', 'get-user-clients', { users }, userClientMap);
  return Object.fromEntries(Object.entries(map).map(([user, clients]) => [user, clients.map((cl) => cl.id)]));
}

export async function localClientsOf(db: Db, users: readonly string[]): Promise<UserClientMap> {
  const map: UserClientMap = Object.fromEntries(users.map((u) => [u, []]));
  for (const row of await clientStore.listMany(db, users)) map[row.user]?.push(pubClientJson(row));
  return map;
}

export const userParams = z.object({ domain: z.string(), uid: z.uuid() });

export const getUserClients = endpoint(
  {
    name: 'get-user-clients-qualified',
    method: 'get',
    path: '/users/{domain}/{uid}/clients',
    request: { params: userParams },
    errors: FEDERATED_CALL_ERRORS,
    responses: { 200: { description: 'The user’s clients', ...json(z.array(pubClient)) } },
  },
  async (c) => {
    const { domain, uid } = c.req.valid('param');
    return c.json((await clientsOfUsers(c, domain, [uid]))[uid] ?? [], 200);
  },
);

export const getUserClient = endpoint(
  {
    name: 'get-user-client-qualified',
    method: 'get',
    path: '/users/{domain}/{uid}/clients/{client}',
    request: { params: userParams.extend({ client: z.string().regex(CLIENT_ID_PATTERN) }) },
    errors: [brigErrors.userClientNotFound, ...FEDERATED_CALL_ERRORS],
    responses: { 200: { description: 'The client', ...json(pubClient) } },
  },
  async (c) => {
    const { domain, uid, client } = c.req.valid('param');
    const found = (await clientsOfUsers(c, domain, [uid]))[uid]?.find((cl) => cl.id === client);
    if (found === undefined) throw new ApiError(brigErrors.userClientNotFound);
    return c.json(found, 200);
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
        ...json(z.object({ qualified_user_map: z.record(z.string(), userClientMap) })),
      },
    },
  },
  async (c) => {
    const byDomain = groupBy(c.req.valid('json').qualified_users, (u) => u.domain);
    const qualified_user_map: Record<string, UserClientMap> = {};
    for (const [domain, users] of byDomain) {
      // An unreachable domain is left out.
      const clients = await unlessUnreachable(
        clientsOfUsers(
          c,
          domain,
          users.map((u) => u.id),
        ),
      );
      if (clients !== undefined) qualified_user_map[domain] = clients;
    }
    return c.json({ qualified_user_map }, 200);
  },
);
