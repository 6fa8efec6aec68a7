// leave-conversation: a member on another backend leaves a conversation this backend owns; and
// the other way round, a local member leaving a conversation another backend owns.
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { QualifiedRef } from '../../../shared/proteus/types.js';
import type { AppEnv } from '../../api/app-env.js';
import { ApiError } from '../../api/errors/api-error.js';
import { galleyErrors } from '../../api/errors/galley.js';
import { commitChange, joinChanges } from '../../effects/commit-change.js';
import { conversationEvent } from '../../events/conversation-events.js';
import { memberLeaveData } from '../../../shared/events/member-events.js';
import { FederatorClient } from '../../federation/client.js';
import { federationRpc } from '../../federation/rpc.js';
import { conversationBook } from '../conversations/conversation-book.js';
import { tellMembersEffect } from '../conversations/notify.js';
import { roleAllows } from '../conversations/roles.js';
import { membershipChangedEffect } from '../conversations/conversation-object.js';
import { deps } from '../../api/deps.js';
import { rpcContract } from '../../federation/contract.js';

const leaveRequest = z.object({ conv_id: z.uuid(), leaver: z.uuid() }).openapi('LeaveConversationRequest');
const leaveError = z.enum([
  'RemoveFromConversationErrorRemovalNotAllowed',
  'RemoveFromConversationErrorNotFound',
  'RemoveFromConversationErrorUnchanged',
]);
const leaveResponse = z
  .union([z.object({ Left: leaveError }), z.object({ Right: z.array(z.unknown()).max(0) })])
  .openapi('LeaveConversationResponse');

/**
 * A remote member leaves a group conversation of this backend; everyone hears `member-leave`. The
 * calling backend asks again when it got no answer: the leaver is gone then (NotFound, as in
 * wire), and what the first call committed is carried out by its pending effects.
 */
const leaveConversationRpc = rpcContract({
  component: 'galley',
  rpc: 'leave-conversation',
  request: leaveRequest,
  response: leaveResponse,
});

export const leaveConversation = federationRpc(
  { ...leaveConversationRpc, description: 'Left, or why not' },
  async (c, req, { origin }) => {
    const conv = await conversationBook.get(c.env, { id: req.conv_id, domain: deps(c).domain });
    const leaver = { id: req.leaver, domain: origin };
    const members = conv === undefined ? [] : await conversationBook.members(c.env, conv);
    const me = members.find((m) => m.userId === leaver.id && m.userDomain === leaver.domain);
    if (conv === undefined || me === undefined) return { Left: 'RemoveFromConversationErrorNotFound' as const };
    if (conv.type !== 0 || !roleAllows(me.role, 'leave_conversation'))
      return { Left: 'RemoveFromConversationErrorRemovalNotAllowed' as const };
    const left = conversationEvent('conversation.member-leave', conv, leaver, memberLeaveData([leaver], 'left'), {
      team: conv.team,
    });
    await commitChange(
      c.env,
      c.get('config'),
      joinChanges(conversationBook.removeMembers(c.env, conv, [leaver]), {
        statements: [],
        effects: [membershipChangedEffect(conv, [leaver]), tellMembersEffect(conv, members, left)],
      }),
    );
    return { Right: [] };
  },
);

/**
 * A local member leaves a conversation another backend owns: the owner removes them and tells
 * everyone (this backend too, which then tells its members, the leaver included, and drops the
 * copy if nobody local is left); the copy here forgets them at once.
 * Returns the `member-leave` event the owner will announce.
 */
export async function leaveRemoteConversation(c: Context<AppEnv>, conv: QualifiedRef, me: QualifiedRef) {
  const answer = await FederatorClient.of(c.get('config')).call(conv.domain, leaveConversationRpc, {
    conv_id: conv.id,
    leaver: me.id,
  });
  if ('Left' in answer) {
    if (answer.Left === 'RemoveFromConversationErrorNotFound') throw new ApiError(galleyErrors.noConversation);
    if (answer.Left === 'RemoveFromConversationErrorRemovalNotAllowed')
      throw new ApiError(galleyErrors.actionDenied, 'Insufficient authorization (missing leave_conversation)');
  }
  await commitChange(c.env, c.get('config'), conversationBook.removeMembers(c.env, conv, [me]));
  return conversationEvent('conversation.member-leave', conv, me, memberLeaveData([me], 'left'));
}
