import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { clients, conversationMembers, conversations, teamMembers } from '../../shared/db/schema.js';
import type { QualifiedRef } from '../../shared/proteus/types.js';
import { database } from '../db/drizzle.js';

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
 * A conversation's protocol and team, and its members with their clients (and legal hold facts), in two statements of
 * one batch (a join, so no parameter list grows with the member count). It reads brig's clients and galley's team
 * members as they are; it writes nothing.
 */
export async function readConversationState(
  d1: D1Database,
  conv: QualifiedRef,
  localDomain: string,
): Promise<{ meta: { protocol: string; team: string | null } | undefined; members: MemberClientRow[] }> {
  const db = database(d1);
  const m = conversationMembers;
  const local = eq(m.userDomain, localDomain);
  const [meta, members] = await db.batch([
    db
      .select({ protocol: conversations.protocol, team: conversations.team })
      .from(conversations)
      .where(and(eq(conversations.domain, conv.domain), eq(conversations.id, conv.id))),
    db
      .select({
        userDomain: m.userDomain,
        userId: m.userId,
        client: clients.id,
        legalhold: sql<number>`${clients.type} = 'legalhold'`.mapWith(Boolean),
        consent: isNotNull(teamMembers.legalholdStatus).mapWith(Boolean),
        serviceProvider: m.serviceProvider,
        serviceId: m.serviceId,
      })
      .from(m)
      .leftJoin(clients, and(local, eq(clients.user, m.userId)))
      .leftJoin(teamMembers, and(local, eq(teamMembers.user, m.userId)))
      .where(and(eq(m.convDomain, conv.domain), eq(m.convId, conv.id))),
  ]);
  return { meta: meta[0], members };
}
