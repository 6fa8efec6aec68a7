// Removing a bot: by an admin of its conversation, or by the bot itself (`DELETE /bot/self`). Its
// member-leave reaches the members and every bot (the removed one too); its account then ends.
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { providerErrors } from '../../api/errors/provider.js';
import { json, uuid } from '../../api/schemas/common.js';
import { bot, self } from '../../api/self.js';
import { database } from '../../db/client.js';
import { conversationWithMembers, leaveBot, ROLE_ADMIN, serviceOf } from '../../galley/face.js';
import { refuseWithSecondFactor } from './bot-guards.js';
import { deps } from '../../api/deps.js';

const removeBotResponse = z.object({ event: z.record(z.string(), z.unknown()) }).openapi('RemoveBotResponse');

async function handleRemoveBot(c: Context<AppEnv>, conv: string, target: string) {
  const config = c.get('config');
  const db = database(c.env.DB);
  const me = self(c);
  const domain = deps(c).domain;
  const caller = await deps(c).users.account({ id: me.user, domain });
  if (caller === undefined) throw new ApiError(providerErrors.accessDenied);
  await refuseWithSecondFactor(db, config, caller);
  const found = await conversationWithMembers(c.env, { id: conv, domain });
  const mine = found?.members.find((m) => m.userId === me.user && m.userDomain === domain);
  if (found === undefined || mine === undefined) throw new ApiError(providerErrors.conversationNotFound);
  if (mine.role !== ROLE_ADMIN) throw new ApiError(providerErrors.accessDenied);
  if (found.conv.type !== 0) throw new ApiError(providerErrors.invalidConversation);
  const member = found.members.find((m) => m.userId === target && m.userDomain === domain);
  if (member === undefined || serviceOf(member) === undefined) return c.body(null, 204);
  const event = await leaveBot(c.env, config, found.conv, target, { id: me.user, domain }, me);
  await deps(c).users.deleteBotAccount(target);
  return event === undefined ? c.body(null, 204) : c.json({ event }, 200);
}

const request = { params: z.object({ conv: uuid, bot: uuid }) };
const errors = [providerErrors.conversationNotFound, providerErrors.accessDenied, providerErrors.invalidConversation];
const responses = {
  200: { description: 'The bot left', ...json(removeBotResponse) },
  204: { description: 'No such bot in the conversation' },
};

/** `DELETE /bot/conversations/{conv}/{bot}` (v7+). */
export const removeBotRoute = endpoint(
  {
    name: 'remove-bot',
    method: 'delete',
    path: '/bot/conversations/{conv}/{bot}',
    from: 7,
    request,
    errors,
    responses,
  },
  (c) => handleRemoveBot(c, c.req.valid('param').conv, c.req.valid('param').bot),
);

/** `DELETE /conversations/{conv}/bots/{bot}` (before v7). */
export const removeBotV6 = endpoint(
  {
    name: 'remove-bot@v6',
    method: 'delete',
    path: '/conversations/{conv}/bots/{bot}',
    until: 7,
    request,
    errors,
    responses,
  },
  (c) => handleRemoveBot(c, c.req.valid('param').conv, c.req.valid('param').bot),
);

/** `DELETE /bot/self`: the bot leaves its conversation, and its account ends. */
export const deleteBotSelf = endpoint(
  {
    name: 'bot-delete-self',
    method: 'delete',
    path: '/bot/self',
    auth: 'bot',
    errors: [providerErrors.invalidBot],
    responses: { 200: { description: 'The bot left' } },
  },
  async (c) => {
    const me = bot(c);
    const config = c.get('config');
    const domain = deps(c).domain;
    const user = await deps(c).users.account({ id: me.bot, domain });
    if (user?.bot !== true || user.status === 'deleted') throw new ApiError(providerErrors.invalidBot);
    await leaveBot(c.env, config, { id: me.conversation, domain }, me.bot, { id: me.bot, domain });
    await deps(c).users.deleteBotAccount(me.bot);
    return c.body(null, 200);
  },
);
