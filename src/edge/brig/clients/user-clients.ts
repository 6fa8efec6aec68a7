import type { Config } from '../../../shared/config/index.js';
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { brigErrors } from '../../api/errors/brig.js';
import { FEDERATED_CALL_ERRORS } from '../../api/errors/federation.js';
import { json, jsonBody, qualifiedUserId, type QualifiedId } from '../../api/schemas/common.js';
import { groupBy } from '../../../shared/group-by.js';
import { database, type Db } from '../../db/client.js';
import { FederatorClient, unlessUnreachable } from '../../federation/client.js';
import { CLIENT_ID_PATTERN } from '../../../shared/client-id.js';
import { pubClient, pubClientJson } from './client-json.js';
import { clientStore } from './client-store.js';
import { deps } from '../../api/deps.js';
import { getUserClientsRpc, userClientMap } from '../federation-api/contract.js';

export const localDomainOf = (c: Context<AppEnv>) => deps(c).domain;

type UserClientMap = z.infer<typeof userClientMap>;

/** The public view of these users' clients, every user present (local, or from their own backend). */
async function clientsOfUsers(c: Context<AppEnv>, domain: string, users: readonly string[]): Promise<UserClientMap> {
  if (domain !== localDomainOf(c))
    return FederatorClient.of(c.get('config')).call(domain, getUserClientsRpc, { users });
  return localClientsOf(database(c.env.DB), users);
}

/** The client ids of users of another backend, as it lists them. */
export async function remoteClientIdsOf(
  config: Config,
  domain: string,
  users: readonly string[],
): Promise<Record<string, string[]>> {
  const map = await FederatorClient.of(config).call(domain, getUserClientsRpc, { users });
  return Object.fromEntries(Object.entries(map).map(([user, clients]) => [user, clients.map((cl) => cl.id)]));
}

export async function localClientsOf(db: Db, users: readonly string[]): Promise<UserClientMap> {
  const map: UserClientMap = Object.fromEntries(users.map((u) => [u, []]));
  for (const row of await clientStore.listMany(db, users)) map[row.user]?.push(pubClientJson(row));
  return map;
}

export const userParams = z.object({ domain: z.string(), uid: z.uuid() });

const userClientsRoute = {
  method: 'get',
  errors: FEDERATED_CALL_ERRORS,
  responses: { 200: { description: 'The user’s clients', ...json(z.array(pubClient)) } },
} as const;

export const getUserClients = endpoint(
  {
    name: 'get-user-clients-qualified',
    path: '/users/{domain}/{uid}/clients',
    request: { params: userParams },
    ...userClientsRoute,
  },
  async (c) => {
    const { domain, uid } = c.req.valid('param');
    return c.json((await clientsOfUsers(c, domain, [uid]))[uid] ?? [], 200);
  },
);

export const getUserClientsUnqualified = endpoint(
  {
    name: 'get-user-clients-unqualified',
    path: '/users/{uid}/clients',
    until: 2,
    request: { params: z.object({ uid: z.uuid() }) },
    ...userClientsRoute,
  },
  async (c) => {
    const { uid } = c.req.valid('param');
    return c.json((await clientsOfUsers(c, localDomainOf(c), [uid]))[uid] ?? [], 200);
  },
);

const clientParam = z.string().regex(CLIENT_ID_PATTERN);
const userClientRoute = {
  method: 'get',
  errors: [brigErrors.userClientNotFound, ...FEDERATED_CALL_ERRORS],
  responses: { 200: { description: 'The client', ...json(pubClient) } },
} as const;

async function userClient(c: Context<AppEnv>, domain: string, uid: string, client: string) {
  const found = (await clientsOfUsers(c, domain, [uid]))[uid]?.find((cl) => cl.id === client);
  if (found === undefined) throw new ApiError(brigErrors.userClientNotFound);
  return c.json(found, 200);
}

export const getUserClient = endpoint(
  {
    name: 'get-user-client-qualified',
    path: '/users/{domain}/{uid}/clients/{client}',
    request: { params: userParams.extend({ client: clientParam }) },
    ...userClientRoute,
  },
  (c) => {
    const { domain, uid, client } = c.req.valid('param');
    return userClient(c, domain, uid, client);
  },
);

export const getUserClientUnqualified = endpoint(
  {
    name: 'get-user-client-unqualified',
    path: '/users/{uid}/clients/{client}',
    until: 2,
    request: { params: z.object({ uid: z.uuid(), client: clientParam }) },
    ...userClientRoute,
  },
  (c) => {
    const { uid, client } = c.req.valid('param');
    return userClient(c, localDomainOf(c), uid, client);
  },
);

/** Clients per domain and user; an unreachable domain is left out. */
async function clientsByDomain(c: Context<AppEnv>, users: readonly QualifiedId[]) {
  const map: Record<string, UserClientMap> = {};
  for (const [domain, ofDomain] of groupBy(users, (u) => u.domain)) {
    const clients = await unlessUnreachable(
      clientsOfUsers(
        c,
        domain,
        ofDomain.map((u) => u.id),
      ),
    );
    if (clients !== undefined) map[domain] = clients;
  }
  return map;
}

const listedUsers = z.array(qualifiedUserId).min(1).max(500);
const qualifiedUserMap = z.record(z.string(), userClientMap);
const wrappedListRoute = {
  method: 'post',
  request: jsonBody(z.object({ qualified_users: listedUsers })),
  responses: {
    200: {
      description: 'Clients per domain and user (unreachable domains are left out)',
      ...json(z.object({ qualified_user_map: qualifiedUserMap })),
    },
  },
} as const;

export const listUsersClients = endpoint(
  { name: 'list-clients-bulk@v2', path: '/users/list-clients', from: 2, ...wrappedListRoute },
  async (c) => c.json({ qualified_user_map: await clientsByDomain(c, c.req.valid('json').qualified_users) }, 200),
);

export const listUsersClientsV1 = endpoint(
  { name: 'list-clients-bulk-v2', path: '/users/list-clients/v2', until: 2, ...wrappedListRoute },
  async (c) => c.json({ qualified_user_map: await clientsByDomain(c, c.req.valid('json').qualified_users) }, 200),
);

/** v0 and v1's first form: a bare list in, the bare map out. */
export const listUsersClientsV0 = endpoint(
  {
    name: 'list-clients-bulk',
    method: 'post',
    path: '/users/list-clients',
    until: 2,
    request: jsonBody(listedUsers),
    responses: {
      200: { description: 'Clients per domain and user (unreachable domains are left out)', ...json(qualifiedUserMap) },
    },
  },
  async (c) => c.json(await clientsByDomain(c, c.req.valid('json')), 200),
);
