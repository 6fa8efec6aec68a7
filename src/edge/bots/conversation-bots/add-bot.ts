// Adding a bot to a conversation (wire's brig addBot): the caller must be an admin of a regular
// Proteus conversation open to services; the service must be enabled and, in a team conversation,
// whitelisted by the team. The service is asked for the bot, then the bot joins.
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { providerErrors } from '../../api/errors/provider.js';
import { json, jsonBody, locale, uuid } from '../../api/schemas/common.js';
import { self } from '../../api/self.js';
import { zauthKeys } from '../../auth/keys.js';
import { signBotToken } from '../../auth/tokens.js';
import { database } from '../../db/client.js';
import type { AssetRef } from '../../../shared/db/schema.js';
import { botConversationView, conversationWithMembers, joinBot, ROLE_ADMIN } from '../../galley/face.js';
import { userAsset } from '../../api/schemas/user-asset.js';
import { providerStore } from '../providers/provider-store.js';
import { connectionOf } from '../services/service-connection.js';
import { refuseWithSecondFactor } from './bot-guards.js';
import { requestBot } from './bot-service.js';
import { deps } from '../../api/deps.js';

const addBot = z.object({ provider: uuid, service: uuid, locale: locale.optional() }).openapi('AddBot');
const addBotResponse = z
  .object({
    id: uuid,
    client: z.string(),
    name: z.string(),
    accent_id: z.int(),
    assets: z.array(userAsset),
    event: z.record(z.string(), z.unknown()),
  })
  .openapi('AddBotResponse');

const errors = [
  providerErrors.conversationNotFound,
  providerErrors.accessDenied,
  providerErrors.invalidConversation,
  providerErrors.tooManyMembers,
  providerErrors.serviceNotFound,
  providerErrors.serviceDisabled,
  providerErrors.serviceNotWhitelisted,
  providerErrors.tooManyBots,
  providerErrors.badGateway,
];

/** The conversation, when the caller may add a bot of this service to it. */
async function checkedConversation(c: Context<AppEnv>, conv: string, ref: { provider: string; service: string }) {
  const config = c.get('config');
  const db = database(c.env.DB);
  const me = self(c);
  const domain = deps(c).domain;
  const found = await conversationWithMembers(c.env, { id: conv, domain });
  const mine = found?.members.find((m) => m.userId === me.user && m.userDomain === domain);
  if (found === undefined || mine === undefined) throw new ApiError(providerErrors.conversationNotFound);
  if (mine.role !== ROLE_ADMIN) throw new ApiError(providerErrors.accessDenied);
  // Bots speak Proteus: an MLS conversation has no place for them.
  if (found.conv.type !== 0 || found.conv.protocol === 'mls') throw new ApiError(providerErrors.invalidConversation);
  if (found.members.length - 1 >= config.galley.settings.maxConvSize - 1)
    throw new ApiError(providerErrors.tooManyMembers);
  if (!found.conv.accessRole.includes('service')) throw new ApiError(providerErrors.invalidConversation);
  const service = await providerStore.service(db, ref.provider, ref.service);
  if (service === undefined) throw new ApiError(providerErrors.serviceNotFound);
  if (!service.enabled) throw new ApiError(providerErrors.serviceDisabled);
  const team = found.conv.team;
  if (team !== null && !(await providerStore.whitelisted(db, team, ref.provider, ref.service)))
    throw new ApiError(providerErrors.serviceNotWhitelisted);
  return { ...found, mine, service };
}

async function handleAddBot(c: Context<AppEnv>, conv: string, body: z.infer<typeof addBot>) {
  const config = c.get('config');
  const db = database(c.env.DB);
  const me = self(c);
  const users = deps(c).users;
  const caller = await users.account({ id: me.user, domain: deps(c).domain });
  if (caller === undefined) throw new ApiError(providerErrors.accessDenied);
  await refuseWithSecondFactor(db, config, caller);
  const { conv: row, members, mine, service } = await checkedConversation(c, conv, body);
  const id = crypto.randomUUID();
  const client = await users.botClientId(id);
  const keys = await zauthKeys(c.env, config.brig.zauth.keyIndex);
  const token = await signBotToken(keys, { bot: id, provider: body.provider, conversation: conv });
  const others = members.filter((m) => m !== mine);
  const answer = await requestBot(config, connectionOf(service), {
    id,
    client,
    origin: { id: caller.id, name: caller.name, accent_id: caller.accentId, handle: caller.handle, team: caller.team },
    conversation: botConversationView(row, [mine, ...others]),
    token,
    locale: body.locale ?? caller.locale,
  });
  const ref = { id: body.service, provider: body.provider };
  const account = {
    id,
    client,
    name: answer.name ?? service.name,
    accentId: answer.accent_id ?? 0,
    assets: answer.assets ?? (service.assets as AssetRef[]),
    locale: body.locale ?? caller.locale,
    service: ref,
    prekeys: [...answer.prekeys, answer.last_prekey],
  };
  await users.createBotAccount(account);
  try {
    const event = await joinBot(c.env, config, row, members, { id, service: ref }, me);
    const { name, accentId, assets } = account;
    return c.json({ id, client, name, accent_id: accentId, assets, event }, 201);
  } catch (err) {
    await users.deleteBotAccount(id);
    throw err;
  }
}

const request = { params: z.object({ conv: uuid }), ...jsonBody(addBot) };
const responses = { 201: { description: 'The bot joined', ...json(addBotResponse) } };

/** `POST /bot/conversations/{conv}` (v7+). */
export const addBotRoute = endpoint(
  { name: 'add-bot', method: 'post', path: '/bot/conversations/{conv}', from: 7, request, errors, responses },
  (c) => handleAddBot(c, c.req.valid('param').conv, c.req.valid('json')),
);

/** `POST /conversations/{conv}/bots` (before v7). */
export const addBotV6 = endpoint(
  {
    name: 'add-bot@v6',
    method: 'post',
    path: '/conversations/{conv}/bots',
    until: 7,
    request,
    errors,
    responses,
  },
  (c) => handleAddBot(c, c.req.valid('param').conv, c.req.valid('json')),
);
