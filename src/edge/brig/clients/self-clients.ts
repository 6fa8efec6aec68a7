import { z } from '@hono/zod-openapi';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { brigErrors } from '../../api/errors/brig.js';
import { json, jsonBody } from '../../api/schemas/common.js';
import { self } from '../../api/self.js';
import { database, runBatch } from '../../db/client.js';
import { commitChange } from '../../effects/commit-change.js';
import { clientEvents } from './client-events.js';
import { publishEffect, userStream } from '../../events/publish.js';
import { clientsChangedEffect } from '../../galley/face.js';
import { checkUserPassword } from '../password/passwords.js';
import { selfRow } from '../users/self.js';
import { CLIENT_ID_PATTERN } from '../../../shared/client-id.js';
import { CONSUMABLE_NOTIFICATIONS, clientJson, clientJsonFor, legacyClientIds } from './client-json.js';
import { clientStore } from './client-store.js';
import { checkCapabilities, checkPrekeys, updateClient } from './new-client.js';
import { accountObject } from './account-object.js';
import { clientsGoneEffects } from './clients-gone.js';
import { deps } from '../../api/deps.js';

const clientParam = { params: z.object({ client: z.string().regex(CLIENT_ID_PATTERN) }) };

export const listClients = endpoint(
  {
    name: 'list-clients',
    method: 'get',
    path: '/clients',
    responses: { 200: { description: 'The caller’s clients', ...json(z.array(clientJson)) } },
  },
  async (c) => {
    const rows = await clientStore.list(database(c.env.DB), self(c).user);
    return c.json(
      rows.map((r) => clientJsonFor(r, c.get('apiVersion') ?? 0)),
      200,
    );
  },
);

export const getClient = endpoint(
  {
    name: 'get-client',
    method: 'get',
    path: '/clients/{client}',
    request: clientParam,
    responses: {
      200: { description: 'The client', ...json(clientJson) },
      404: { description: 'No such client (empty body)' },
    },
  },
  async (c) => {
    const row = await clientStore.get(database(c.env.DB), self(c).user, c.req.valid('param').client);
    if (row === undefined) return c.body(null, 404);
    return c.json(clientJsonFor(row, c.get('apiVersion') ?? 0), 200);
  },
);

export const getClientPrekeyIds = endpoint(
  {
    name: 'get-client-prekeys',
    method: 'get',
    path: '/clients/{client}/prekeys',
    request: clientParam,
    responses: { 200: { description: 'Ids of the prekeys not yet claimed', ...json(z.array(z.int())) } },
  },
  async (c) => {
    const me = self(c).user;
    return c.json(await accountObject(c.env, me).prekeyIds(me, c.req.valid('param').client), 200);
  },
);

export const putClient = endpoint(
  {
    name: 'update-client',
    method: 'put',
    path: '/clients/{client}',
    request: { ...clientParam, ...jsonBody(updateClient) },
    errors: [
      brigErrors.clientNotFound,
      brigErrors.malformedPrekeys,
      brigErrors.malformedCapabilities,
      brigErrors.capabilitiesCannotBeRemoved,
      brigErrors.mlsDuplicatePublicKey,
    ],
    responses: { 200: { description: 'Client updated' } },
  },
  async (c) => {
    const body = c.req.valid('json');
    const { client } = c.req.valid('param');
    checkCapabilities(body.capabilities, c.get('apiVersion'));
    const db = database(c.env.DB);
    const me = self(c).user;
    const row = await clientStore.get(db, me, client);
    if (row === undefined) throw new ApiError(brigErrors.clientNotFound);
    const wanted: readonly string[] | undefined = body.capabilities;
    if (wanted !== undefined && !row.capabilities.every((cap) => wanted.includes(cap)))
      throw new ApiError(brigErrors.capabilitiesCannotBeRemoved);
    checkPrekeys(body.prekeys ?? [], body.lastkey);
    const mlsKeys = { ...row.mlsPublicKeys };
    for (const [scheme, key] of Object.entries(body.mls_public_keys ?? {})) {
      if (mlsKeys[scheme] !== undefined) throw new ApiError(brigErrors.mlsDuplicatePublicKey);
      mlsKeys[scheme] = key;
    }
    const patch = {
      ...(body.label === undefined ? {} : { label: body.label }),
      ...(body.capabilities === undefined ? {} : { capabilities: [...new Set(body.capabilities)] }),
      mlsPublicKeys: mlsKeys,
    };
    const keys = [...(body.prekeys ?? []), ...(body.lastkey === undefined ? [] : [body.lastkey])];
    if (keys.length > 0) await accountObject(c.env, me).putPrekeys(me, client, keys);
    await runBatch(db, [clientStore.update(db, me, client, patch)]);
    if (wanted?.includes(CONSUMABLE_NOTIFICATIONS)) {
      await userStream(c.env, me).enableQueue(client, legacyClientIds(await clientStore.list(db, me), [client]));
    }
    return c.body(null, 200);
  },
);

export const deleteClient = endpoint(
  {
    name: 'delete-client',
    method: 'delete',
    path: '/clients/{client}',
    request: {
      ...clientParam,
      body: {
        required: false,
        ...json(z.object({ password: z.string().min(6).max(1024).nullable().optional() }).openapi('DeleteClient')),
      },
    },
    errors: [
      brigErrors.clientNotFound,
      brigErrors.legalholdClientDeleted,
      brigErrors.missingAuth,
      brigErrors.invalidCredentials,
    ],
    responses: { 200: { description: 'Client deleted' } },
  },
  async (c) => {
    const { client } = c.req.valid('param');
    const password = (c.req.valid('json') as { password?: string | null } | undefined)?.password ?? undefined;
    const config = c.get('config');
    const db = database(c.env.DB);
    const user = await selfRow(c);
    const row = await clientStore.get(db, user.id, client);
    if (row === undefined) throw new ApiError(brigErrors.clientNotFound);
    if (row.type === 'legalhold') throw new ApiError(brigErrors.legalholdClientDeleted);
    if (row.type !== 'temporary' && user.password !== null && user.ssoId === null) {
      if (password === undefined) throw new ApiError(brigErrors.missingAuth);
      if (!(await checkUserPassword(c.env, db, config, { user: user.id }, user, password)))
        throw new ApiError(brigErrors.invalidCredentials);
    }
    const me = { id: user.id, domain: deps(c).domain };
    await commitChange(c.env, config, {
      statements: [clientStore.delete(db, user.id, client)],
      effects: [
        ...clientsGoneEffects(user.id, [client]),
        clientsChangedEffect(me, [client]),
        publishEffect([{ user: user.id }], clientEvents.remove(client), { origin: self(c) }),
      ],
    });
    return c.body(null, 200);
  },
);
