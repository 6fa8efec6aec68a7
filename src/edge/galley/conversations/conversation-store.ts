import { and, asc, eq, inArray, or } from 'drizzle-orm';
import type { QualifiedId } from '../../api/schemas/common.js';
import { inChunks } from '../../db/chunks.js';
import type { Db } from '../../db/client.js';
import { conversationCodes, conversationMembers, conversations } from '../../../shared/db/schema.js';

export type ConversationRow = typeof conversations.$inferSelect;
export type MemberRow = typeof conversationMembers.$inferSelect;

const convKey = (c: QualifiedId) => and(eq(conversations.domain, c.domain), eq(conversations.id, c.id));
const membersOfKey = (c: QualifiedId) =>
  and(eq(conversationMembers.convDomain, c.domain), eq(conversationMembers.convId, c.id));
const memberKey = (c: QualifiedId, u: QualifiedId) =>
  and(membersOfKey(c), eq(conversationMembers.userDomain, u.domain), eq(conversationMembers.userId, u.id));

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

/** Conversations and their members (D1 tables conversations, conversation_members). */
export const conversationStore = {
  async get(db: Db, c: QualifiedId): Promise<ConversationRow | undefined> {
    const [row] = await db.select().from(conversations).where(convKey(c));
    return row;
  },
  async getMany(db: Db, ids: readonly QualifiedId[]): Promise<ConversationRow[]> {
    return inChunks(ids, 2, (chunk) =>
      db
        .select()
        .from(conversations)
        .where(or(...chunk.map(convKey))),
    );
  },
  async members(db: Db, c: QualifiedId): Promise<MemberRow[]> {
    return db.select().from(conversationMembers).where(membersOfKey(c)).orderBy(asc(conversationMembers.joinedAt));
  },
  /** Members of several conversations at once, for listings. */
  async membersOfMany(db: Db, ids: readonly QualifiedId[]): Promise<MemberRow[]> {
    return inChunks(ids, 2, (chunk) =>
      db
        .select()
        .from(conversationMembers)
        .where(or(...chunk.map(membersOfKey))),
    );
  },
  /** One user's memberships in several conversations of one domain. */
  async memberships(db: Db, u: QualifiedId, convDomain: string, convIds: readonly string[]): Promise<MemberRow[]> {
    return inChunks(convIds, 1, (chunk) =>
      db
        .select()
        .from(conversationMembers)
        .where(
          and(
            eq(conversationMembers.userDomain, u.domain),
            eq(conversationMembers.userId, u.id),
            eq(conversationMembers.convDomain, convDomain),
            inArray(conversationMembers.convId, chunk),
          ),
        ),
    );
  },
  async member(db: Db, c: QualifiedId, u: QualifiedId): Promise<MemberRow | undefined> {
    const [row] = await db.select().from(conversationMembers).where(memberKey(c, u));
    return row;
  },
  insert(db: Db, row: ConversationRow) {
    return db.insert(conversations).values(row);
  },
  update(db: Db, c: QualifiedId, patch: Partial<ConversationRow>) {
    return db.update(conversations).set(patch).where(convKey(c));
  },
  /** The conversation row and all its members. */
  remove(db: Db, c: QualifiedId) {
    return [db.delete(conversationMembers).where(membersOfKey(c)), db.delete(conversations).where(convKey(c))];
  },
  /** Statements adding members, in chunks that stay under D1's parameter limit. */
  addMembers(db: Db, rows: MemberRow[]) {
    const perRow = 14;
    const size = Math.floor(90 / perRow);
    const statements = [];
    for (let i = 0; i < rows.length; i += size)
      statements.push(
        db
          .insert(conversationMembers)
          .values(rows.slice(i, i + size))
          .onConflictDoNothing(),
      );
    return statements;
  },
  updateMember(db: Db, c: QualifiedId, u: QualifiedId, patch: Partial<MemberRow>) {
    return db.update(conversationMembers).set(patch).where(memberKey(c, u));
  },
  /** Statements removing members, in chunks that stay under D1's parameter limit. */
  removeMembers(db: Db, c: QualifiedId, users: readonly QualifiedId[]) {
    const statements = [];
    for (let i = 0; i < users.length; i += 40) {
      const chunk = users.slice(i, i + 40);
      const who = or(
        ...chunk.map((u) => and(eq(conversationMembers.userDomain, u.domain), eq(conversationMembers.userId, u.id))),
      );
      statements.push(db.delete(conversationMembers).where(and(membersOfKey(c), who)));
    }
    return statements;
  },
};
