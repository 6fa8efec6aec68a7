import { and, eq } from 'drizzle-orm';
import { conversationMembers, conversations } from '../../shared/db/schema.js';
import type { QualifiedRef } from '../../shared/proteus/types.js';
import type { ConversationDb } from '../db/conversation-db.js';
import { partitionOf } from '../../shared/db/partitions.js';
import { groupBy } from '../../shared/group-by.js';

export interface MemberClientRow {
  userDomain: string;
  userId: string;
  /** One of the member's clients; null for a member without any (or a remote one). */
  client: string | null;
  /** Whether that client is a legal hold device. */
  legalhold: boolean;
  /** Whether the member (a local team member) consented to legal hold. */
  consent: boolean;
  /** A bot member's service; null for users. */
  serviceProvider: string | null;
  serviceId: string | null;
}

/**
 * A conversation's protocol and team and its members (from the object's storage), with the local
 * members' clients and legal hold facts from the directory: one statement per partition over its
 * local members as a JSON list, so no parameter list grows with the member count. It writes nothing.
 */
export async function readConversationState(
  db: ConversationDb,
  directory: readonly D1Database[],
  conv: QualifiedRef,
  localDomain: string,
): Promise<{ meta: { protocol: string; team: string | null } | undefined; members: MemberClientRow[] }> {
  const [meta] = db
    .select({ protocol: conversations.protocol, team: conversations.team })
    .from(conversations)
    .where(and(eq(conversations.domain, conv.domain), eq(conversations.id, conv.id)))
    .all();
  const members = db
    .select({
      userDomain: conversationMembers.userDomain,
      userId: conversationMembers.userId,
      serviceProvider: conversationMembers.serviceProvider,
      serviceId: conversationMembers.serviceId,
    })
    .from(conversationMembers)
    .where(and(eq(conversationMembers.convDomain, conv.domain), eq(conversationMembers.convId, conv.id)))
    .all();
  const local = members.filter((m) => m.userDomain === localDomain).map((m) => m.userId);
  const byPartition = groupBy(local, (user) => partitionOf(directory, user));
  const held = (await Promise.all([...byPartition].map(([d1, users]) => clientsOf(d1, users)))).flat();
  const byUser = new Map<string, typeof held>();
  for (const h of held) byUser.set(h.user, [...(byUser.get(h.user) ?? []), h]);
  return {
    meta,
    members: members.flatMap((m) => {
      if (m.userDomain !== localDomain) return [{ ...m, client: null, legalhold: false, consent: false }];
      return (byUser.get(m.userId) ?? []).map((r) => ({
        ...m,
        client: r.client,
        legalhold: r.legalhold,
        consent: r.consent,
      }));
    }),
  };
}

/**
 * Each of these local users with each of their clients (a user without any: one row, no client),
 * whether it is a legal hold device and whether the user consented to legal hold.
 */
async function clientsOf(d1: D1Database, users: readonly string[]) {
  const { results } = await d1
    .prepare(
      `SELECT u.value AS user, c.id AS client, c.type = 'legalhold' AS legalhold,
         tm.legalhold_status IS NOT NULL AS consent
       FROM json_each(?) u LEFT JOIN clients c ON c.user = u.value LEFT JOIN team_members tm ON tm.user = u.value`,
    )
    .bind(JSON.stringify(users))
    .all<{ user: string; client: string | null; legalhold: number | null; consent: number }>();
  return results.map((r) => ({
    user: r.user,
    client: r.client,
    legalhold: r.legalhold === 1,
    consent: r.consent === 1,
  }));
}
