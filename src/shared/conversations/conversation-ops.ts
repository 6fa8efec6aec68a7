import type { conversationMembers, conversations } from '../db/schema.js';
import type { QualifiedRef } from '../proteus/types.js';

export type ConversationRow = typeof conversations.$inferSelect;
export type MemberRow = typeof conversationMembers.$inferSelect;

/**
 * A change galley makes of a conversation (the conversation book's writes), which the
 * conversation's object applies, in order, in one transaction.
 */
export type ConversationOp =
  | { create: { row: ConversationRow; members: MemberRow[] } }
  | { update: Partial<ConversationRow> }
  | { remove: true }
  | { addMembers: MemberRow[] }
  | { removeMembers: QualifiedRef[] }
  | { updateMember: { user: QualifiedRef; patch: Partial<MemberRow> } };
