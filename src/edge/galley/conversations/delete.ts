import { z } from '@hono/zod-openapi';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { galleyErrors } from '../../api/errors/galley.js';
import { self, selfQualified } from '../../api/self.js';
import { database } from '../../db/client.js';
import { commitChange, joinChanges } from '../../effects/commit-change.js';
import { conversationEvent } from '../../events/conversation-events.js';
import { membershipChangedEffect } from './conversation-object.js';
import { hasHiddenPerm } from '../../api/team-permissions.js';
import { teamStore } from '../teams/team-store.js';
import { loadMembershipOf, requireAction } from './access-check.js';
import { codeStore } from './conversation-store.js';
import { conversationBook } from './conversation-book.js';
import { tellMembersEffect } from './notify.js';
import { deps } from '../../api/deps.js';

/**
 * `DELETE /teams/{tid}/conversations/{cid}`: a member whose conversation role may
 * `delete_conversation` (or, in a channel, an admin of its team) removes a group conversation, its
 * members and its guest link; every member gets `conversation.delete`. As in wire-server, `tid` is
 * not consulted: the checks are the conversation's, in wire-server's order, and a conversation of
 * a team needs the caller in that team.
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
    const { cid } = c.req.valid('param');
    const db = database(c.env.DB);
    const id = { id: cid, domain: deps(c).domain };
    const { conv, members, me } = await loadMembershipOf(deps(c), id, selfQualified(c));
    const teamRole = conv.team === null ? undefined : await teamStore.roleOf(db, conv.team, self(c).user);
    const managesChannel =
      conv.groupConvType === 'channel' && teamRole !== undefined && hasHiddenPerm(teamRole, 'ManageChannels');
    if (me !== undefined && !managesChannel) requireAction(me, 'delete_conversation');
    if (conv.type !== 0) throw new ApiError(galleyErrors.invalidOp);
    if (me === undefined) throw new ApiError(galleyErrors.noConversation);
    if (conv.team !== null && teamRole === undefined) throw new ApiError(galleyErrors.noTeamMember);

    const deleted = conversationEvent('conversation.delete', conv, selfQualified(c), null, { team: conv.team });
    await commitChange(
      c.env,
      c.get('config'),
      joinChanges(conversationBook.remove(c.env, id, members), {
        statements: [codeStore.remove(db, id)],
        effects: [membershipChangedEffect(id), tellMembersEffect(conv, members, deleted, c.get('self'))],
      }),
    );
    return c.body(null, 200);
  },
);
