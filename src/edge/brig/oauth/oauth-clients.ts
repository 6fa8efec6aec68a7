import { z } from '@hono/zod-openapi';
import { toHex } from '../../../shared/hex.js';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { oauthErrors } from '../../api/errors/oauth.js';
import { json, jsonBody } from '../../api/schemas/common.js';
import { database } from '../../db/client.js';
import { sha256Hex } from '../../../shared/keys.js';
import { oauthClient, oauthSettings } from './oauth-context.js';
import { oauthStore, type OAuthClientRow } from './oauth-store.js';

export const redirectUrl = z.url().openapi('RedirectUrl');
const applicationName = z.string().min(6).max(256);

const clientConfig = z
  .object({ application_name: applicationName, redirect_url: redirectUrl })
  .openapi('OAuthClientConfig');

const oauthClientJson = z
  .object({ client_id: z.uuid(), application_name: applicationName, redirect_url: redirectUrl })
  .openapi('OAuthClient');

const credentials = z.object({ client_id: z.uuid(), client_secret: z.string() }).openapi('OAuthClientCredentials');

export const clientParam = z.object({ OAuthClientId: z.uuid() });

/** Wire's `()` in JSON: an empty array. */
export const emptyList = z.array(z.string()).max(0);

const clientJson = (row: OAuthClientRow) => ({
  client_id: row.id,
  application_name: row.name,
  redirect_url: row.redirectUrl,
});

/** `GET /oauth/clients/{id}`: what the consent page shows of an application. */
export const getOAuthClient = endpoint(
  {
    name: 'get-oauth-client',
    method: 'get',
    path: '/oauth/clients/{OAuthClientId}',
    summary: 'Get OAuth client information',
    request: { params: clientParam },
    errors: [oauthErrors.disabled, oauthErrors.clientNotFound],
    responses: { 200: { description: 'The OAuth client', ...json(oauthClientJson) } },
  },
  async (c) => c.json(clientJson((await oauthClient(c, c.req.valid('param').OAuthClientId)).client), 200),
);

/** `POST /i/oauth/clients`: registers a curated application; its secret is shown this once. */
export const registerOAuthClient = endpoint(
  {
    name: 'register-oauth-client',
    method: 'post',
    path: '/i/oauth/clients',
    request: jsonBody(clientConfig),
    errors: [oauthErrors.disabled],
    responses: { 200: { description: 'The new client and its secret', ...json(credentials) } },
  },
  async (c) => {
    oauthSettings(c);
    const body = c.req.valid('json');
    const secret = toHex(crypto.getRandomValues(new Uint8Array(32)));
    const id = crypto.randomUUID();
    await oauthStore.addClient(database(c.env.DB), {
      id,
      name: body.application_name,
      redirectUrl: body.redirect_url,
      secretHash: await sha256Hex(secret),
    });
    return c.json({ client_id: id, client_secret: secret }, 200);
  },
);

export const getOAuthClientInternal = endpoint(
  {
    name: 'get-oauth-client-internal',
    method: 'get',
    path: '/i/oauth/clients/{OAuthClientId}',
    request: { params: clientParam },
    errors: [oauthErrors.disabled, oauthErrors.clientNotFound],
    responses: { 200: { description: 'The OAuth client', ...json(oauthClientJson) } },
  },
  async (c) => c.json(clientJson((await oauthClient(c, c.req.valid('param').OAuthClientId)).client), 200),
);

export const updateOAuthClient = endpoint(
  {
    name: 'update-oauth-client',
    method: 'put',
    path: '/i/oauth/clients/{OAuthClientId}',
    request: { params: clientParam, ...jsonBody(clientConfig) },
    errors: [oauthErrors.disabled, oauthErrors.clientNotFound],
    responses: { 200: { description: 'The updated OAuth client', ...json(oauthClientJson) } },
  },
  async (c) => {
    const { db, client } = await oauthClient(c, c.req.valid('param').OAuthClientId);
    const body = c.req.valid('json');
    const row = await oauthStore.updateClient(db, client.id, {
      name: body.application_name,
      redirectUrl: body.redirect_url,
    });
    if (row === undefined) throw new ApiError(oauthErrors.clientNotFound);
    return c.json(clientJson(row), 200);
  },
);

/** `DELETE /i/oauth/clients/{id}`: the application goes, and with it its codes and sessions. */
export const deleteOAuthClient = endpoint(
  {
    name: 'delete-oauth-client',
    method: 'delete',
    path: '/i/oauth/clients/{OAuthClientId}',
    request: { params: clientParam },
    errors: [oauthErrors.disabled, oauthErrors.clientNotFound],
    responses: { 200: { description: 'Deleted', ...json(emptyList) } },
  },
  async (c) => {
    const { db, client } = await oauthClient(c, c.req.valid('param').OAuthClientId);
    await oauthStore.deleteClient(db, client.id);
    return c.json([], 200);
  },
);
