import { and, eq, inArray } from 'drizzle-orm';
import {
  conversationMembers,
  conversations,
  mlsGroupClients,
  mlsGroupInfos,
  mlsProposals,
  mlsSubconversations,
} from '../../shared/db/schema.js';
import type { QualifiedRef } from '../../shared/proteus/types.js';
import { database } from '../db/drizzle.js';

/** What versions before the Conversation object's own storage kept of a conversation in D1. */
export interface LegacyConversation {
  row: typeof conversations.$inferSelect | undefined;
  members: Array<typeof conversationMembers.$inferSelect>;
  subconversations: Array<typeof mlsSubconversations.$inferSelect>;
  groupClients: Array<typeof mlsGroupClients.$inferSelect>;
  groupInfos: Array<typeof mlsGroupInfos.$inferSelect>;
  proposals: Array<typeof mlsProposals.$inferSelect>;
}

const convKey = (c: QualifiedRef) => and(eq(conversations.domain, c.domain), eq(conversations.id, c.id));
const membersOf = (c: QualifiedRef) =>
  and(eq(conversationMembers.convDomain, c.domain), eq(conversationMembers.convId, c.id));
const subsOf = (c: QualifiedRef) =>
  and(eq(mlsSubconversations.convDomain, c.domain), eq(mlsSubconversations.convId, c.id));

/**
 * A conversation's rows as D1 held them (`conversations`, `conversation_members` and the MLS group
 * tables, of its group and its subconversations'): nothing writes them any more; each
 * conversation's rows move into its object on its first call, which deletes them here.
 */
export const legacyConversationStore = {
  async of(d1: D1Database, c: QualifiedRef): Promise<LegacyConversation> {
    const db = database(d1);
    const [rows, members, subconversations] = await db.batch([
      db.select().from(conversations).where(convKey(c)),
      db.select().from(conversationMembers).where(membersOf(c)),
      db.select().from(mlsSubconversations).where(subsOf(c)),
    ]);
    const row = rows[0];
    const groups = [row?.groupId, ...subconversations.map((s) => s.groupId)].filter((g): g is string => g != null);
    if (groups.length === 0) return { row, members, subconversations, groupClients: [], groupInfos: [], proposals: [] };
    const [groupClients, groupInfos, proposals] = await db.batch([
      db.select().from(mlsGroupClients).where(inArray(mlsGroupClients.groupId, groups)),
      db.select().from(mlsGroupInfos).where(inArray(mlsGroupInfos.groupId, groups)),
      db.select().from(mlsProposals).where(inArray(mlsProposals.groupId, groups)),
    ]);
    return { row, members, subconversations, groupClients, groupInfos, proposals };
  },

  /** Deletes what `of` read. */
  async forget(d1: D1Database, c: QualifiedRef, groups: readonly string[]): Promise<void> {
    const db = database(d1);
    await db.batch([
      db.delete(conversationMembers).where(membersOf(c)),
      db.delete(conversations).where(convKey(c)),
      db.delete(mlsSubconversations).where(subsOf(c)),
      db.delete(mlsGroupClients).where(inArray(mlsGroupClients.groupId, [...groups])),
      db.delete(mlsGroupInfos).where(inArray(mlsGroupInfos.groupId, [...groups])),
      db.delete(mlsProposals).where(inArray(mlsProposals.groupId, [...groups])),
    ]);
  },
};
