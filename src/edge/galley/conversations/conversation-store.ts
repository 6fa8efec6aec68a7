import { and, eq } from 'drizzle-orm';
import type { QualifiedId } from '../../api/schemas/common.js';
import type { Db } from '../../db/client.js';
import { conversationCodes } from '../../../shared/db/schema.js';

export type { ConversationRow, MemberRow } from '../../../shared/conversations/conversation-ops.js';
import type { ConversationRow } from '../../../shared/conversations/conversation-ops.js';

export type CodeRow = typeof conversationCodes.$inferSelect;

/** A private conversation (self, connect or 1:1): no name, no team, closed to joining. */
export function privateConversationRow(c: QualifiedId, creator: string | null, type: 1 | 2 | 3): ConversationRow {
  return {
    domain: c.domain,
    id: c.id,
    type,
    creator,
    name: null,
    access: ['private'],
    accessRole: [],
    team: null,
    messageTimer: null,
    receiptMode: null,
    protocol: 'proteus',
    groupId: null,
    epoch: 0,
    cipherSuite: null,
    epochTimestamp: null,
    cellsState: 'disabled',
    groupConvType: null,
    addPermission: null,
    createdAt: Date.now(),
  };
}

/** Guest links (D1 table conversation_codes), one per conversation. */
export const codeStore = {
  async of(db: Db, c: QualifiedId): Promise<CodeRow | undefined> {
    const [row] = await db
      .select()
      .from(conversationCodes)
      .where(and(eq(conversationCodes.convDomain, c.domain), eq(conversationCodes.convId, c.id)));
    return row !== undefined && row.expiresAt > Date.now() ? row : undefined;
  },
  async byKey(db: Db, key: string): Promise<CodeRow | undefined> {
    const [row] = await db.select().from(conversationCodes).where(eq(conversationCodes.key, key));
    return row !== undefined && row.expiresAt > Date.now() ? row : undefined;
  },
  put(db: Db, row: CodeRow) {
    return db
      .insert(conversationCodes)
      .values(row)
      .onConflictDoUpdate({ target: [conversationCodes.convDomain, conversationCodes.convId], set: row });
  },
  remove(db: Db, c: QualifiedId) {
    return db
      .delete(conversationCodes)
      .where(and(eq(conversationCodes.convDomain, c.domain), eq(conversationCodes.convId, c.id)));
  },
};
