// The bot API's brig part: a bot's own profile and client, its prekeys, and the users and clients
// it encrypts for. Only a bot's token reaches these (nginz's ACL).
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { brigErrors } from '../../api/errors/brig.js';
import { providerErrors } from '../../api/errors/provider.js';
import { json, jsonBody, uuid } from '../../api/schemas/common.js';
import { bot } from '../../api/self.js';
import { database } from '../../db/client.js';
import { clientJson, clientJsonFor, pubClient } from '../clients/client-json.js';
import { clientStore } from '../clients/client-store.js';
import { checkPrekeys } from '../clients/new-client.js';
import { claimLocalMany } from '../clients/prekey-claims.js';
import { accountObject } from '../clients/account-object.js';
import { prekey } from '../../api/schemas/prekeys.js';
import { localClientsOf } from '../clients/user-clients.js';
import { profileJson, userProfile } from '../users/user-json.js';
import { userStore, visibleAccount } from '../users/user-store.js';
import { deps } from '../../api/deps.js';
import { userClientPrekeys } from '../federation-api/contract.js';

const botUserView = z
  .object({ id: uuid, name: z.string(), accent_id: z.int(), handle: z.string().nullable(), team: uuid.nullable() })
  .openapi('BotUserView');

/** The bot's one client, if it still has it. */
async function botClient(c: Context<AppEnv>) {
  const [client] = await clientStore.list(database(c.env.DB), bot(c).bot);
  return client;
}

export const getBotSelf = endpoint(
  {
    name: 'bot-get-self',
    method: 'get',
    path: '/bot/self',
    auth: 'bot',
    errors: [brigErrors.userNotFound],
    responses: { 200: { description: 'The bot’s profile', ...json(userProfile) } },
  },
  async (c) => {
    const user = await userStore.byId(database(c.env.DB), bot(c).bot);
    if (user === undefined || user.status === 'deleted') throw new ApiError(brigErrors.userNotFound);
    return c.json(profileJson(user, deps(c).domain), 200);
  },
);

export const getBotClient = endpoint(
  {
    name: 'bot-get-client',
    method: 'get',
    path: '/bot/client',
    auth: 'bot',
    errors: [brigErrors.clientNotFound],
    responses: { 200: { description: 'Client found', ...json(clientJson) } },
  },
  async (c) => {
    const client = await botClient(c);
    if (client === undefined) throw new ApiError(brigErrors.clientNotFound);
    return c.json(clientJsonFor(client, c.get('apiVersion') ?? 0), 200);
  },
);

export const listBotPrekeys = endpoint(
  {
    name: 'bot-list-prekeys',
    method: 'get',
    path: '/bot/client/prekeys',
    auth: 'bot',
    responses: { 200: { description: 'The ids of the client’s prekeys', ...json(z.array(z.int())) } },
  },
  async (c) => {
    const client = await botClient(c);
    const ids = client === undefined ? [] : await accountObject(c.env, client.user).prekeyIds(client.user, client.id);
    return c.json(ids, 200);
  },
);

export const updateBotPrekeys = endpoint(
  {
    name: 'bot-update-prekeys',
    method: 'post',
    path: '/bot/client/prekeys',
    auth: 'bot',
    request: jsonBody(z.object({ prekeys: z.array(prekey) }).openapi('UpdateBotPrekeys')),
    errors: [brigErrors.clientNotFound, brigErrors.malformedPrekeys],
    responses: { 200: { description: 'Prekeys stored' } },
  },
  async (c) => {
    const { prekeys } = c.req.valid('json');
    checkPrekeys(prekeys, undefined);
    const client = await botClient(c);
    if (client === undefined) throw new ApiError(brigErrors.clientNotFound);
    await accountObject(c.env, client.user).putPrekeys(client.user, client.id, prekeys);
    return c.body(null, 200);
  },
);

export const claimBotUsersPrekeys = endpoint(
  {
    name: 'bot-claim-users-prekeys',
    method: 'post',
    path: '/bot/users/prekeys',
    auth: 'bot',
    request: jsonBody(z.record(z.uuid(), z.array(z.string())).openapi('UserClients')),
    errors: [providerErrors.tooManyClients],
    responses: { 200: { description: 'A claimed prekey per client', ...json(userClientPrekeys) } },
  },
  async (c) => {
    const asked = c.req.valid('json');
    if (Object.keys(asked).length > c.get('config').brig.optSettings.setMaxConvSize)
      throw new ApiError(providerErrors.tooManyClients);
    return c.json(await claimLocalMany(deps(c), asked), 200);
  },
);

export const listBotUsers = endpoint(
  {
    name: 'bot-list-users',
    method: 'get',
    path: '/bot/users',
    auth: 'bot',
    request: { query: z.object({ ids: z.string() }) },
    responses: { 200: { description: 'The users found', ...json(z.array(botUserView)) } },
  },
  async (c) => {
    const ids = c.req
      .valid('query')
      .ids.split(',')
      .filter((id) => uuid.safeParse(id).success);
    const users = (await userStore.byIds(database(c.env.DB), ids)).filter(
      (u) => visibleAccount(u) && u.status !== 'deleted',
    );
    const view = users.map((u) => ({ id: u.id, name: u.name, accent_id: u.accentId, handle: u.handle, team: u.team }));
    return c.json(view, 200);
  },
);

export const getBotUserClients = endpoint(
  {
    name: 'bot-get-user-clients',
    method: 'get',
    path: '/bot/users/{user}/clients',
    auth: 'bot',
    request: { params: z.object({ user: uuid }) },
    responses: { 200: { description: 'The user’s clients', ...json(z.array(pubClient)) } },
  },
  async (c) => {
    const { user } = c.req.valid('param');
    return c.json((await localClientsOf(database(c.env.DB), [user]))[user] ?? [], 200);
  },
);
