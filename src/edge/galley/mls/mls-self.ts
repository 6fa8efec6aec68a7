import { deps } from '../../api/deps.js';
import { endpoint } from '../../api/endpoint.js';
import { mlsErrors } from '../../api/errors/mls.js';
import { json } from '../../api/schemas/common.js';
import { selfQualified } from '../../api/self.js';
import { conversationJson } from '../conversations/conversation-json.js';
import { conversationSchema } from '../conversations/read-routes.js';
import { requireMls } from './mls-enabled.js';
import { ensureMlsSelfConversation } from './mls-self-conversation.js';

const mlsSelfRoute = (name: string, from: 5 | 6, until?: 6) =>
  endpoint(
    {
      name,
      method: 'get',
      path: '/conversations/mls-self',
      from,
      ...(until === undefined ? {} : { until }),
      errors: [mlsErrors.mlsNotEnabled],
      responses: { 200: { description: 'The MLS self-conversation', ...json(conversationSchema) } },
    },
    async (c) => {
      requireMls(c);
      const me = selfQualified(c);
      const self = await ensureMlsSelfConversation(deps(c), me);
      return c.json(conversationJson(self.conv, self.members, me, c.get('apiVersion') ?? 0), 200);
    },
  );

/**
 * `GET /conversations/mls-self` (v5+): the caller's MLS self conversation, where their clients
 * share state; created on the first request, its epoch moves with its first commit.
 */
export const getMlsSelfConversation = mlsSelfRoute('get-mls-self-conversation', 6);
export const getMlsSelfConversationV5 = mlsSelfRoute('get-mls-self-conversation@v5', 5, 6);
