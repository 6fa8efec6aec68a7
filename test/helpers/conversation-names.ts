import { listConversationIds, listConversations } from './endpoints/galley.js';

/** The names of the user's conversations, as their clients list them (list-ids, then list). */
export async function conversationNames(base: string, token: string): Promise<string[]> {
  const ids = await listConversationIds(base, token, {});
  const found = await listConversations(base, token, { qualified_ids: ids.body.qualified_conversations });
  return found.body.found.map((c: { name: string | null }) => c.name);
}
