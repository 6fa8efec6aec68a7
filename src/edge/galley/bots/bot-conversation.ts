import { otherMemberJson } from '../conversations/conversation-json.js';
import type { ConversationRow, MemberRow } from '../conversations/conversation-store.js';

/** wire's BotConvView: the conversation as a bot sees it, with the members given. */
export const botConversationView = (conv: ConversationRow, members: readonly MemberRow[]) => ({
  id: conv.id,
  ...(conv.name === null ? {} : { name: conv.name }),
  members: members.map(otherMemberJson),
});
