import { z } from '@hono/zod-openapi';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { brigErrors } from '../../api/errors/brig.js';
import { federationErrors } from '../../api/errors/federation.js';
import { json, jsonBody, qualifiedUserId, type QualifiedId } from '../../api/schemas/common.js';
import { database, type Db } from '../../db/client.js';
import { CLIENT_ID_PATTERN } from '../../../shared/client-id.js';
import { clientStore } from './client-store.js';
import { prekeyStore } from './prekey-store.js';
import { prekey, type Prekey } from './prekeys.js';
import { localDomainOf, requireLocalDomain, userParams } from './user-clients.js';

const clientPrekey = z.object({ client: z.string(), prekey }).openapi('ClientPrekey');

export const getUserPrekeys = endpoint(
  {
    name: 'get-users-prekey-bundle-qualified',
    method: 'get',
    path: '/users/{domain}/{uid}/prekeys',
    request: { params: userParams },
    errors: [federationErrors.federationNotEnabled],
    responses: {
      200: {
        description: 'One prekey of each of the user’s clients (claimed: it is not handed out again)',
        ...json(z.object({ user: z.uuid(), clients: z.array(clientPrekey) }).openapi('PrekeyBundle')),
      },
    },
  },
  async (c) => {
    const { domain, uid } = c.req.valid('param');
    requireLocalDomain(c, domain);
    const db = database(c.env.DB);
    const clients = [];
    for (const cl of await clientStore.list(db, uid)) {
      const key = await prekeyStore.claim(db, uid, cl.id);
      if (key !== undefined) clients.push({ client: cl.id, prekey: key });
    }
    return c.json({ user: uid, clients }, 200);
  },
);

export const getClientPrekey = endpoint(
  {
    name: 'get-users-prekeys-client-qualified',
    method: 'get',
    path: '/users/{domain}/{uid}/prekeys/{client}',
    request: { params: userParams.extend({ client: z.string().regex(CLIENT_ID_PATTERN) }) },
    errors: [brigErrors.prekeyNotFound, federationErrors.federationNotEnabled],
    responses: { 200: { description: 'A prekey of the client (claimed)', ...json(clientPrekey) } },
  },
  async (c) => {
    const { domain, uid, client } = c.req.valid('param');
    requireLocalDomain(c, domain);
    const key = await prekeyStore.claim(database(c.env.DB), uid, client);
    if (key === undefined) throw new ApiError(brigErrors.prekeyNotFound);
    return c.json({ client, prekey: key }, 200);
  },
);

/** `{domain: {user: [client]}}` */
const userClients = z.record(z.string(), z.record(z.uuid(), z.array(z.string().regex(CLIENT_ID_PATTERN))));
type ClaimMap = Record<string, Record<string, Record<string, Prekey | null>>>;

async function claimMany(db: Db, local: string, asked: z.infer<typeof userClients>) {
  const found: ClaimMap = {};
  const failed: QualifiedId[] = [];
  for (const [domain, users] of Object.entries(asked)) {
    if (domain !== local) {
      failed.push(...Object.keys(users).map((id) => ({ id, domain })));
      continue;
    }
    const byUser: ClaimMap[string] = (found[domain] = {});
    for (const [user, clients] of Object.entries(users)) {
      const byClient: Record<string, Prekey | null> = (byUser[user] = {});
      for (const client of clients) byClient[client] = (await prekeyStore.claim(db, user, client)) ?? null;
    }
  }
  return { found, failed };
}

const listPrekeysRoute = {
  method: 'post' as const,
  path: '/users/list-prekeys',
  request: jsonBody(userClients),
  errors: [brigErrors.tooManyClientsRequested],
};

function refuseTooMany(max: number, asked: z.infer<typeof userClients>): void {
  const total = Object.values(asked).reduce(
    (n, users) => n + Object.values(users).reduce((m, cs) => m + cs.length, 0),
    0,
  );
  if (total > max) throw new ApiError(brigErrors.tooManyClientsRequested);
}

const prekeyMap = z.record(z.string(), z.record(z.string(), z.record(z.string(), prekey.nullable())));

export const listPrekeys = endpoint(
  {
    name: 'get-multi-user-prekey-bundle-qualified',
    from: 4,
    ...listPrekeysRoute,
    responses: {
      200: {
        description:
          'A claimed prekey per client (null when it has none); users on unreachable domains in failed_to_list',
        ...json(
          z
            .object({ qualified_user_client_prekeys: prekeyMap, failed_to_list: z.array(qualifiedUserId).optional() })
            .openapi('QualifiedUserClientPrekeyMapV4'),
        ),
      },
    },
  },
  async (c) => {
    const asked = c.req.valid('json');
    refuseTooMany(c.get('config').brig.optSettings.setMaxConvSize, asked);
    const { found, failed } = await claimMany(database(c.env.DB), localDomainOf(c), asked);
    return c.json(
      { qualified_user_client_prekeys: found, ...(failed.length > 0 ? { failed_to_list: failed } : {}) },
      200,
    );
  },
);

export const listPrekeysV3 = endpoint(
  {
    name: 'get-multi-user-prekey-bundle-qualified@v3',
    until: 4,
    ...listPrekeysRoute,
    errors: [brigErrors.tooManyClientsRequested, federationErrors.federationNotEnabled],
    responses: { 200: { description: 'A claimed prekey per client (null when it has none)', ...json(prekeyMap) } },
  },
  async (c) => {
    const asked = c.req.valid('json');
    refuseTooMany(c.get('config').brig.optSettings.setMaxConvSize, asked);
    const { found, failed } = await claimMany(database(c.env.DB), localDomainOf(c), asked);
    if (failed.length > 0) throw new ApiError(federationErrors.federationNotEnabled);
    return c.json(found, 200);
  },
);
