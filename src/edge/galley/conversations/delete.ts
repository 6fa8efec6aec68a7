import { z } from '@hono/zod-openapi';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { galleyErrors } from '../../api/errors/galley.js';
import { database, runBatch } from '../../db/client.js';
import { conversationEvent } from '../../events/conversation-events.js';
import { membershipChanged } from '../messaging/conversation-object.js';
import { teamStore } from '../teams/team-store.js';
import { requireAction, requireMember, selfQualified } from './access-check.js';
import { codeStore, conversationStore } from './conversation-store.js';
import { notifyMembers } from './notify.js';

/**
 * `DELETE /teams/{tid}/conversations/{cid}`: a team member whose conversation role may
 * `delete_conversation` removes a group conversation of the team, its members and its guest
 * link; every member gets `conversation.delete`.
 */
export const deleteTeamConversation = endpoint(
  {
    name: 'delete-team-conversation',
    method: 'delete',
    path: '/teams/{tid}/conversations/{cid}',
    request: { params: z.object({ tid: z.uuid(), cid: z.uuid() }) },
    errors: [galleyErrors.noConversation, galleyErrors.noTeamMember, galleyErrors.invalidOp, galleyErrors.actionDenied],
    responses: { 200: { description: 'Conversation deleted' } },
  },
  async (c) => {
    const { tid, cid } = c.req.valid('param');
    const db = database(c.env.DB);
    const id = { id: cid, domain: c.get('config').brig.optSettings.setFederationDomain };
    const { conv, members, me } = await requireMember(c, id);
    if (conv.team !== tid) throw new ApiError(galleyErrors.noConversation);
    requireAction(me, 'delete_conversation');
    if ((await teamStore.roleOf(db, tid, me.userId)) === undefined) throw new ApiError(galleyErrors.noTeamMember);
    if (conv.type !== 0) throw new ApiError(galleyErrors.invalidOp);

    await runBatch(db, [codeStore.remove(db, id), ...conversationStore.remove(db, id)]);
    await membershipChanged(c.env, id);
    await notifyMembers(c, conv, members, conversationEvent('conversation.delete', conv, selfQualified(c), null, { team: conv.team }));
    return c.body(null, 200);
  },
);
