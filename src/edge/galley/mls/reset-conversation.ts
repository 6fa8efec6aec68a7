import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { fromBase64 } from '../../../shared/base64.js';
import type { AppEnv } from '../../api/app-env.js';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { galleyErrors } from '../../api/errors/galley.js';
import { mlsErrors } from '../../api/errors/mls.js';
import { jsonBody } from '../../api/schemas/common.js';
import { self } from '../../api/self.js';
import { requireAction } from '../conversations/access-check.js';
import { conversationObject, objectDelivery } from '../conversations/conversation-object.js';
import { groupConversation, UNPARSABLE_GROUP_ID } from './group-conversation.js';
import { refusalError } from './mls-failure.js';
import { requireMls } from './mls-enabled.js';

/** Who resets, and how the reset's event reaches the members. */
function resetBy(c: Context<AppEnv>) {
  const delivery = objectDelivery(c.get('config'));
  return { by: { user: self(c).user, domain: delivery.localDomain }, ...delivery };
}

/**
 * `POST /mls/reset-conversation` (v9): a member (`leave_conversation`) resets the conversation's
 * group, given its current group id and epoch: everybody starts again from a new group, under the
 * next generation's group id. Subconversations are reset with `DELETE …/subconversations/{id}`.
 */
export const resetConversation = endpoint(
  {
    name: 'mls-reset-conversation',
    method: 'post',
    path: '/mls/reset-conversation',
    from: 9,
    request: jsonBody(z.object({ group_id: z.string(), epoch: z.int().min(0) }).openapi('MLSReset')),
    errors: [
      mlsErrors.mlsNotEnabled,
      mlsErrors.mlsProtocolError,
      mlsErrors.mlsStaleMessage,
      galleyErrors.actionDenied,
      galleyErrors.invalidOp,
      galleyErrors.noConversation,
    ],
    responses: { 200: { description: 'Conversation reset' } },
  },
  async (c) => {
    requireMls(c);
    const { group_id, epoch } = c.req.valid('json');
    const bytes = fromBase64(group_id);
    if (bytes === undefined) throw new ApiError(mlsErrors.mlsProtocolError, UNPARSABLE_GROUP_ID);
    const target = await groupConversation(c, bytes);
    if (target.subconv !== undefined || target.unstored) throw new ApiError(galleyErrors.invalidOp);
    requireAction(target.me, 'leave_conversation');
    const result = await conversationObject(c.env, target.id).resetGroup({
      conv: target.id,
      groupId: group_id,
      epoch,
      ...resetBy(c),
    });
    if ('refusal' in result) throw refusalError(result.refusal, result.message);
    return c.body(null, 200);
  },
);
