import type { conversationMembers, conversations } from '../db/schema.js';
import type { QualifiedRef } from '../proteus/types.js';

export type ConversationRow = typeof conversations.$inferSelect;
export type MemberRow = typeof conversationMembers.$inferSelect;

/**
 * What a route asks of a conversation without reading every member (an MLS group of thousands):
 * its row, the memberships of the users it names, and whether any member is of another backend.
 */
export interface Standing {
  row: ConversationRow;
  members: MemberRow[];
  elsewhere: boolean;
}

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
