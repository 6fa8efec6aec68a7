import { z } from '@hono/zod-openapi';
import { deps } from '../../api/deps.js';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { brigErrors } from '../../api/errors/brig.js';
import { FEDERATED_CALL_ERRORS, federationErrors } from '../../api/errors/federation.js';
import { json, jsonBody, qualifiedUserId, type QualifiedId } from '../../api/schemas/common.js';
import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { unlessUnreachable } from '../../federation/client.js';
import { CLIENT_ID_PATTERN } from '../../../shared/client-id.js';
import {
  claimLocalBundle,
  claimLocalPrekey,
  claimLocalMany,
  remoteClaim,
  remoteClaimBundle,
  remoteClaimMany,
  type UserClientPrekeys,
} from './prekey-claims.js';
import { prekey } from '../../api/schemas/prekeys.js';
import { localDomainOf, userParams } from './user-clients.js';
import { clientPrekey, prekeyBundle } from '../federation-api/contract.js';

const userPrekeysRoute = {
  method: 'get',
  errors: FEDERATED_CALL_ERRORS,
  responses: {
    200: {
      description: 'One prekey of each of the user’s clients (claimed: it is not handed out again)',
      ...json(prekeyBundle),
    },
  },
} as const;

async function userPrekeys(c: Context<AppEnv>, domain: string, uid: string) {
  const bundle =
    domain === localDomainOf(c)
      ? await claimLocalBundle(deps(c), uid)
      : await remoteClaimBundle(c.get('config'), domain, uid);
  return c.json(bundle, 200);
}

export const getUserPrekeys = endpoint(
  {
    name: 'get-users-prekey-bundle-qualified',
    path: '/users/{domain}/{uid}/prekeys',
    request: { params: userParams },
    ...userPrekeysRoute,
  },
  (c) => userPrekeys(c, c.req.valid('param').domain, c.req.valid('param').uid),
);

export const getUserPrekeysUnqualified = endpoint(
  {
    name: 'get-users-prekey-bundle-unqualified',
    path: '/users/{uid}/prekeys',
    until: 2,
    request: { params: z.object({ uid: z.uuid() }) },
    ...userPrekeysRoute,
  },
  (c) => userPrekeys(c, localDomainOf(c), c.req.valid('param').uid),
);

const clientParam = z.string().regex(CLIENT_ID_PATTERN);
const clientPrekeyRoute = {
  method: 'get',
  errors: [brigErrors.prekeyNotFound, ...FEDERATED_CALL_ERRORS],
  responses: { 200: { description: 'A prekey of the client (claimed)', ...json(clientPrekey) } },
} as const;

async function claimClientPrekey(c: Context<AppEnv>, domain: string, uid: string, client: string) {
  const claimed =
    domain === localDomainOf(c)
      ? await claimLocalPrekey(deps(c), uid, client)
      : (await remoteClaim(c.get('config'), domain, uid, client))?.prekey;
  if (claimed === undefined) throw new ApiError(brigErrors.prekeyNotFound);
  return c.json({ client, prekey: claimed }, 200);
}

export const getClientPrekey = endpoint(
  {
    name: 'get-users-prekeys-client-qualified',
    path: '/users/{domain}/{uid}/prekeys/{client}',
    request: { params: userParams.extend({ client: clientParam }) },
    ...clientPrekeyRoute,
  },
  (c) => {
    const { domain, uid, client } = c.req.valid('param');
    return claimClientPrekey(c, domain, uid, client);
  },
);

export const getClientPrekeyUnqualified = endpoint(
  {
    name: 'get-users-prekeys-client-unqualified',
    path: '/users/{uid}/prekeys/{client}',
    until: 2,
    request: { params: z.object({ uid: z.uuid(), client: clientParam }) },
    ...clientPrekeyRoute,
  },
  (c) => {
    const { uid, client } = c.req.valid('param');
    return claimClientPrekey(c, localDomainOf(c), uid, client);
  },
);

/** `{domain: {user: [client]}}` */
const userClients = z.record(z.string(), z.record(z.uuid(), z.array(z.string().regex(CLIENT_ID_PATTERN))));
/** Claims per domain: local ones here, others from their backends; a domain that fails is listed as failed. */
async function claimMany(c: Context<AppEnv>, asked: z.infer<typeof userClients>) {
  const found: Record<string, UserClientPrekeys> = {};
  const failed: QualifiedId[] = [];
  for (const [domain, users] of Object.entries(asked)) {
    if (domain === localDomainOf(c)) {
      found[domain] = await claimLocalMany(deps(c), users);
      continue;
    }
    const claimed = await unlessUnreachable(remoteClaimMany(c.get('config'), domain, users));
    if (claimed === undefined) failed.push(...Object.keys(users).map((id) => ({ id, domain })));
    else found[domain] = claimed;
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
    const { found, failed } = await claimMany(c, asked);
    return c.json(
      { qualified_user_client_prekeys: found, ...(failed.length > 0 ? { failed_to_list: failed } : {}) },
      200,
    );
  },
);

/** v0 and v1: local users' clients only, `{user: [client]}` in, `{user: {client: prekey}}` out. */
export const listPrekeysUnqualified = endpoint(
  {
    name: 'get-multi-user-prekey-bundle-unqualified',
    method: 'post',
    path: '/users/prekeys',
    until: 2,
    request: jsonBody(z.record(z.uuid(), z.array(clientParam)).openapi('UserClients')),
    errors: [brigErrors.tooManyClientsRequested],
    responses: {
      200: {
        description: 'A claimed prekey per client (null when it has none)',
        ...json(z.record(z.string(), z.record(z.string(), prekey.nullable())).openapi('UserClientPrekeyMap')),
      },
    },
  },
  async (c) => {
    const asked = c.req.valid('json');
    const domain = localDomainOf(c);
    refuseTooMany(c.get('config').brig.optSettings.setMaxConvSize, { [domain]: asked });
    return c.json(await claimLocalMany(deps(c), asked), 200);
  },
);

export const listPrekeysV3 = endpoint(
  {
    name: 'get-multi-user-prekey-bundle-qualified@v3',
    until: 4,
    ...listPrekeysRoute,
    errors: [brigErrors.tooManyClientsRequested, federationErrors.federationNotAvailable],
    responses: { 200: { description: 'A claimed prekey per client (null when it has none)', ...json(prekeyMap) } },
  },
  async (c) => {
    const asked = c.req.valid('json');
    refuseTooMany(c.get('config').brig.optSettings.setMaxConvSize, asked);
    const { found, failed } = await claimMany(c, asked);
    // Before v4 the answer has no room for failures: the whole request fails.
    if (failed.length > 0)
      throw new ApiError(federationErrors.federationNotAvailable, 'a backend could not be reached');
    return c.json(found, 200);
  },
);
