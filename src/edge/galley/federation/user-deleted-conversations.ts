// on-user-deleted-conversations: a user of another backend was deleted; they leave the
// conversations owned here that the notification names, and group members hear `member-leave`.
import { z } from '@hono/zod-openapi';
import { memberLeaveData } from '../../../shared/events/member-events.js';
import { commitChange, joinChanges } from '../../effects/commit-change.js';
import { conversationEvent } from '../../events/conversation-events.js';
import { emptyResponse, federationRpc } from '../../federation/rpc.js';
import { conversationBook } from '../conversations/conversation-book.js';
import { tellMembersEffect } from '../conversations/notify.js';
import { membershipChangedEffect } from '../conversations/conversation-object.js';
import { deps } from '../../api/deps.js';
import { rpcContract } from '../../federation/contract.js';

const notification = z
  .object({ user: z.uuid(), conversations: z.array(z.uuid()).min(1).max(1000) })
  .openapi('UserDeletedConversationsNotification');

export const onUserDeletedConversationsRpc = rpcContract({
  component: 'galley',
  rpc: 'on-user-deleted-conversations',
  request: notification,
  response: emptyResponse,
});

export const onUserDeletedConversations = federationRpc(
  { ...onUserDeletedConversationsRpc, description: 'Taken' },
  async (c, body, { origin }) => {
    const config = c.get('config');
    const user = { id: body.user, domain: origin };
    const local = deps(c).domain;
    for (const convId of body.conversations) {
      const conv = await conversationBook.get(c.env, { id: convId, domain: local });
      if (conv === undefined) continue;
      const members = await conversationBook.members(c.env, conv);
      // Delivered again, it finds them gone: the first delivery's pending effects tell the members.
      if (!members.some((m) => m.userId === user.id && m.userDomain === user.domain)) continue;
      const remaining = members.filter((m) => !(m.userId === user.id && m.userDomain === user.domain));
      const left = memberLeaveData([user], 'user-deleted');
      const event = conversationEvent('conversation.member-leave', conv, user, left, { team: conv.team });
      const told = {
        statements: [],
        effects: [
          membershipChangedEffect(conv, [user]),
          // A 1:1 needs no event: the deletion itself tells the other side.
          ...(conv.type === 0 ? [tellMembersEffect(conv, remaining, event)] : []),
        ],
      };
      await commitChange(c.env, config, joinChanges(conversationBook.removeMembers(c.env, conv, [user]), told));
    }
    return {};
  },
);
