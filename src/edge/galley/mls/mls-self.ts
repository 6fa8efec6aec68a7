import { uuidToBytes, uuidV5 } from '../../../shared/uuid.js';
import { endpoint } from '../../api/endpoint.js';
import { mlsErrors } from '../../api/errors/mls.js';
import { json, type QualifiedId } from '../../api/schemas/common.js';
import { selfQualified } from '../../api/self.js';
import { database } from '../../db/client.js';
import { conversationJson } from '../conversations/conversation-json.js';
import { conversationSchema } from '../conversations/read-routes.js';
import { ensureSelfConversation } from '../conversations/self-conversation.js';
import { requireMls } from './mls-enabled.js';
import { mlsPrivateConversationRow } from './mls-conversation-row.js';

/** wire-server's `namespaceMLSSelfConv`: a version-5 UUID made with the nil namespace. */
const MLS_SELF_NAMESPACE = '3eac2a2c-3850-510b-bd08-8a98e80dd4d9';

/** The id of a user's MLS self conversation (wire-server's `mlsSelfConvId`): UUIDv5 of the user id's 16 bytes. */
async function mlsSelfConversationId(user: QualifiedId): Promise<QualifiedId> {
  return { id: await uuidV5(MLS_SELF_NAMESPACE, uuidToBytes(user.id)!), domain: user.domain };
}

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
      const id = await mlsSelfConversationId(me);
      const self = await ensureSelfConversation(database(c.env.DB), mlsPrivateConversationRow(id, me.id, 1), me);
      return c.json(conversationJson(self.conv, self.members, me, c.get('apiVersion') ?? 0), 200);
    },
  );

/**
 * `GET /conversations/mls-self` (v5+): the caller's MLS self conversation, where their clients
 * share state; created on the first request, its epoch moves with its first commit.
 */
export const getMlsSelfConversation = mlsSelfRoute('get-mls-self-conversation', 6);
export const getMlsSelfConversationV5 = mlsSelfRoute('get-mls-self-conversation@v5', 5, 6);
