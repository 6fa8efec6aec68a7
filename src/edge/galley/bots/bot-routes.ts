// The bot API's galley part: a bot's view of its conversation and its messages into it. The bot's
// token names both the bot and its one conversation.
import { z } from '@hono/zod-openapi';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { galleyErrors } from '../../api/errors/galley.js';
import { json } from '../../api/schemas/common.js';
import { bot } from '../../api/self.js';
import { legacyOtrErrors, legacyOtrRequest, legacyOtrResponses, readLegacyOtr } from '../messaging/legacy-message.js';
import { legacyAnswer } from '../messaging/legacy-otr.js';
import { sendInOwnedConversation } from '../messaging/proteus-send.js';
import { botConversationView } from './bot-conversation.js';
import { conversationWithMembers } from './bot-members.js';
import { deps } from '../../api/deps.js';

const botConvView = z
  .object({ id: z.uuid(), name: z.string().optional(), members: z.array(z.record(z.string(), z.unknown())) })
  .openapi('BotConvView');

export const getBotConversation = endpoint(
  {
    name: 'get-bot-conversation',
    method: 'get',
    path: '/bot/conversation',
    auth: 'bot',
    errors: [galleyErrors.noConversation],
    responses: { 200: { description: 'The conversation', ...json(botConvView) } },
  },
  async (c) => {
    const me = bot(c);
    const domain = deps(c).domain;
    const found = await conversationWithMembers(c.env, { id: me.conversation, domain });
    const member = (m: { userId: string; userDomain: string }) => m.userId === me.bot && m.userDomain === domain;
    if (found === undefined || !found.members.some(member)) throw new ApiError(galleyErrors.noConversation);
    const others = found.members.filter((m) => m.userDomain === domain && !member(m));
    return c.json(botConversationView(found.conv, others), 200);
  },
);

export const postBotMessage = endpoint(
  {
    name: 'post-bot-message-unqualified',
    method: 'post',
    path: '/bot/messages',
    auth: 'bot',
    request: legacyOtrRequest,
    errors: legacyOtrErrors,
    responses: legacyOtrResponses,
  },
  async (c) => {
    const domain = deps(c).domain;
    const me = bot(c);
    const message = await readLegacyOtr(c, domain, c.req.valid('query'));
    const result = await sendInOwnedConversation(deps(c), {
      conv: { id: me.conversation, domain },
      // A bot has no websocket connection to spare.
      sender: { id: me.bot, domain, client: message.sender, connection: '' },
      message,
    });
    return c.json(...legacyAnswer(result, domain));
  },
);
