import { and, eq, inArray, or } from 'drizzle-orm';
import type { QualifiedId } from '../../api/schemas/common.js';
import { type BatchStatement, type Db, partitionFor, partitionsOf } from '../../db/client.js';
import { chunked } from '../../../shared/chunked.js';
import { conversationCopies, foreignMembers, serviceBots, teamConversations } from '../../../shared/db/schema.js';
import type { ConversationRow, MemberRow } from './conversation-store.js';

/** Rows per insert, under D1's 100 parameters. */
const ROWS = 18;

/**
 * What galley asks across conversations, apart from the conversations (D1 tables
 * team_conversations, foreign_members, conversation_copies, service_bots; migration 0033): a
 * team's conversations, the conversations with users of a domain, the copies of a domain's
 * conversations, a service's bots. Written with the conversations, by the conversation book: a
 * team's entries in the partition of the team's slot, as effects of the changes; the others in
 * partition 0, in the changes' batches.
 */
export const conversationIndexStore = {
  /** A new conversation: whether it is a copy (owned elsewhere than `here`). */
  created(db: Db, row: ConversationRow, here: string): BatchStatement[] {
    return row.domain === here
      ? []
      : [db.insert(conversationCopies).values({ domain: row.domain, id: row.id }).onConflictDoNothing()];
  },
  /** Enters a conversation in its team's list (again is a no-op). */
  async enterTeam(db: Db, team: string, conv: QualifiedId): Promise<void> {
    await partitionFor(db, team)
      .insert(teamConversations)
      .values({ convDomain: conv.domain, convId: conv.id, team })
      .onConflictDoNothing();
  },
  /** Takes a conversation out of its team's list, wherever that is (a conversation gone need not say its team). */
  async leaveTeam(db: Db, conv: QualifiedId): Promise<void> {
    const of = and(eq(teamConversations.convDomain, conv.domain), eq(teamConversations.convId, conv.id));
    await Promise.all(partitionsOf(db).map((part) => part.delete(teamConversations).where(of)));
  },
  /** Members joined: those of other domains than the conversation's, and the bots. */
  added(db: Db, rows: readonly MemberRow[]): BatchStatement[] {
    const foreign = rows
      .filter((m) => m.userDomain !== m.convDomain)
      .map((m) => ({ convDomain: m.convDomain, convId: m.convId, userDomain: m.userDomain, userId: m.userId }));
    const bots = rows.flatMap((m) =>
      m.serviceId === null || m.serviceProvider === null
        ? []
        : [
            {
              convDomain: m.convDomain,
              convId: m.convId,
              bot: m.userId,
              provider: m.serviceProvider,
              service: m.serviceId,
            },
          ],
    );
    return [
      ...chunked(foreign, ROWS).map((c) => db.insert(foreignMembers).values(c).onConflictDoNothing()),
      ...chunked(bots, ROWS).map((c) => db.insert(serviceBots).values(c).onConflictDoNothing()),
    ];
  },
  /** Members left. */
  removed(db: Db, conv: QualifiedId, users: readonly QualifiedId[]): BatchStatement[] {
    const foreign = users.filter((u) => u.domain !== conv.domain);
    const own = users.filter((u) => u.domain === conv.domain).map((u) => u.id);
    return [
      ...chunked(foreign, 40).map((chunk) =>
        db
          .delete(foreignMembers)
          .where(
            and(
              eq(foreignMembers.convDomain, conv.domain),
              eq(foreignMembers.convId, conv.id),
              or(...chunk.map((u) => and(eq(foreignMembers.userDomain, u.domain), eq(foreignMembers.userId, u.id)))),
            ),
          ),
      ),
      ...chunked(own, 80).map((chunk) =>
        db
          .delete(serviceBots)
          .where(
            and(
              eq(serviceBots.convDomain, conv.domain),
              eq(serviceBots.convId, conv.id),
              inArray(serviceBots.bot, chunk),
            ),
          ),
      ),
    ];
  },
  /** The conversation is gone. */
  gone(db: Db, conv: QualifiedId): BatchStatement[] {
    return [
      db
        .delete(foreignMembers)
        .where(and(eq(foreignMembers.convDomain, conv.domain), eq(foreignMembers.convId, conv.id))),
      db
        .delete(conversationCopies)
        .where(and(eq(conversationCopies.domain, conv.domain), eq(conversationCopies.id, conv.id))),
      db.delete(serviceBots).where(and(eq(serviceBots.convDomain, conv.domain), eq(serviceBots.convId, conv.id))),
    ];
  },

  /** The conversations of a team (ids only). */
  async ofTeam(db: Db, team: string): Promise<QualifiedId[]> {
    return partitionFor(db, team)
      .select({ domain: teamConversations.convDomain, id: teamConversations.convId })
      .from(teamConversations)
      .where(eq(teamConversations.team, team));
  },
  /** The conversations with members from `userDomain` (distinct), those `convDomain` owns when given. */
  async withMembersFrom(db: Db, userDomain: string, convDomain?: string): Promise<QualifiedId[]> {
    const from = eq(foreignMembers.userDomain, userDomain);
    return db
      .selectDistinct({ domain: foreignMembers.convDomain, id: foreignMembers.convId })
      .from(foreignMembers)
      .where(convDomain === undefined ? from : and(from, eq(foreignMembers.convDomain, convDomain)));
  },
  /** The conversations `domain` owns that this backend keeps a copy of. */
  async copiesOf(db: Db, domain: string): Promise<QualifiedId[]> {
    return db
      .select({ domain: conversationCopies.domain, id: conversationCopies.id })
      .from(conversationCopies)
      .where(eq(conversationCopies.domain, domain));
  },
  /** The bots of a service, with their conversations. */
  async botsOf(db: Db, service: { id: string; provider: string }) {
    const rows = await db
      .select({ domain: serviceBots.convDomain, id: serviceBots.convId, bot: serviceBots.bot })
      .from(serviceBots)
      .where(and(eq(serviceBots.provider, service.provider), eq(serviceBots.service, service.id)));
    return rows.map((r) => ({ conv: { domain: r.domain, id: r.id }, bot: r.bot }));
  },
};
