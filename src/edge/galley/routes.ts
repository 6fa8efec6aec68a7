import type { Endpoint } from '../api/endpoint.js';
import { createGroupConversation } from './conversations/create.js';
import { getConversation, getRoles, listConversationIds, listConversations } from './conversations/queries.js';
import { createSelfConversation } from './conversations/self-conversation.js';

export const galleyPublic: Endpoint[] = [
  // order matters where paths overlap: /conversations/self and /list-ids before /{domain}/{id}
  createSelfConversation,
  createGroupConversation,
  listConversationIds,
  listConversations,
  getRoles,
  getConversation,
];
