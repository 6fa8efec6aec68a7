import { and, eq, gt, lt, or, sql } from 'drizzle-orm';
import { conversationMembers, conversations } from '../../shared/db/schema.js';
import type {
  ConversationOp,
  ConversationRow,
  MemberRow,
  Standing,
} from '../../shared/conversations/conversation-ops.js';
import type { QualifiedRef } from '../../shared/proteus/types.js';
import { type ConversationDb, preparedOnce, type Write } from '../db/conversation-db.js';
import type { LegacyConversation } from './legacy-conversation-store.js';
import { groupsRemoval } from './mls/group-store.js';

export type { ConversationOp, ConversationRow, MemberRow };

const convKey = (c: QualifiedRef) => and(eq(conversations.domain, c.domain), eq(conversations.id, c.id));
const membersOf = (c: QualifiedRef) =>
  and(eq(conversationMembers.convDomain, c.domain), eq(conversationMembers.convId, c.id));
const memberKey = (c: QualifiedRef, u: QualifiedRef) =>
  and(membersOf(c), eq(conversationMembers.userDomain, u.domain), eq(conversationMembers.userId, u.id));

const placeholder = sql.placeholder;
const rowById = preparedOnce((db) =>
  db
    .select()
    .from(conversations)
    .where(and(eq(conversations.domain, placeholder('domain')), eq(conversations.id, placeholder('id'))))
    .prepare(),
);
const memberById = preparedOnce((db) =>
  db
    .select()
    .from(conversationMembers)
    .where(
      and(
        eq(conversationMembers.convDomain, placeholder('convDomain')),
        eq(conversationMembers.convId, placeholder('convId')),
        eq(conversationMembers.userDomain, placeholder('userDomain')),
        eq(conversationMembers.userId, placeholder('userId')),
      ),
    )
    .prepare(),
);
const memberElsewhere = preparedOnce((db) =>
  db
    .select({ one: sql`1` })
    .from(conversationMembers)
    .where(
      and(
        eq(conversationMembers.convDomain, placeholder('convDomain')),
        eq(conversationMembers.convId, placeholder('convId')),
        or(
          lt(conversationMembers.userDomain, placeholder('local')),
          gt(conversationMembers.userDomain, placeholder('local')),
        ),
      ),
    )
    .limit(1)
    .prepare(),
);

/** The conversation's row alone; undefined when it does not exist (here). */
export function readRow(db: ConversationDb, c: QualifiedRef): ConversationRow | undefined {
  return rowById(db).all({ domain: c.domain, id: c.id })[0];
}

/**
 * The conversation's row, the memberships of `users` and whether a member is of another domain
 * than `local`: index lookups, whatever the number of members.
 */
export function readStanding(
  db: ConversationDb,
  c: QualifiedRef,
  users: readonly QualifiedRef[],
  local: string,
): Standing | undefined {
  const row = readRow(db, c);
  if (row === undefined) return undefined;
  const conv = { convDomain: c.domain, convId: c.id };
  const members = users.flatMap((u) => memberById(db).all({ ...conv, userDomain: u.domain, userId: u.id }));
  const elsewhere = memberElsewhere(db).all({ ...conv, local });
  return { row, members, elsewhere: elsewhere.length > 0 };
}

/** The conversation's row and its members (oldest first); undefined when it does not exist (here). */
export function readConversation(
  db: ConversationDb,
  c: QualifiedRef,
): { row: ConversationRow; members: MemberRow[] } | undefined {
  const [row] = db.select().from(conversations).where(convKey(c)).all();
  if (row === undefined) return undefined;
  const members = db.select().from(conversationMembers).where(membersOf(c)).orderBy(conversationMembers.joinedAt).all();
  return { row, members };
}

/** The writes of galley's changes, for one transaction. */
export function opWrites(db: ConversationDb, c: QualifiedRef, ops: readonly ConversationOp[]): Write[] {
  return ops.flatMap((op): Write[] => {
    if ('create' in op)
      return [
        db.insert(conversations).values(op.create.row).onConflictDoNothing(),
        ...op.create.members.map((m) => db.insert(conversationMembers).values(m).onConflictDoNothing()),
      ];
    if ('update' in op) return [db.update(conversations).set(op.update).where(convKey(c))];
    if ('addMembers' in op)
      return op.addMembers.map((m) => db.insert(conversationMembers).values(m).onConflictDoNothing());
    if ('removeMembers' in op)
      return op.removeMembers.map((u) => db.delete(conversationMembers).where(memberKey(c, u)));
    if ('updateMember' in op)
      return [db.update(conversationMembers).set(op.updateMember.patch).where(memberKey(c, op.updateMember.user))];
    return removal(db, c);
  });
}

/** The conversation goes, with its members and every MLS group of it (its subconversations' too). */
function removal(db: ConversationDb, c: QualifiedRef): Write[] {
  const [row] = db.select({ groupId: conversations.groupId }).from(conversations).where(convKey(c)).all();
  return [
    db.delete(conversationMembers).where(membersOf(c)),
    db.delete(conversations).where(convKey(c)),
    ...groupsRemoval(db, c, row?.groupId ?? null),
  ];
}

/** The writes copying a conversation's row and members of an earlier version in. */
export function copyIn(db: ConversationDb, legacy: LegacyConversation): Write[] {
  return [
    ...(legacy.row === undefined ? [] : [db.insert(conversations).values(legacy.row).onConflictDoNothing()]),
    ...legacy.members.map((m) => db.insert(conversationMembers).values(m).onConflictDoNothing()),
  ];
}
