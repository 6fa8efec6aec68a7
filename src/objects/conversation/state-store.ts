import type { QualifiedRef } from '../../shared/proteus/types.js';

export interface MemberClientRow {
  user_domain: string;
  user_id: string;
  /** One of the member's clients; null for a member without any (or a remote one). */
  client: string | null;
  /** 1 when that client is a legal hold device. */
  legalhold: number | null;
  /** 1 when the member (a local team member) consented to legal hold. */
  consent: number | null;
  /** A bot member's service; null for users. */
  service_provider: string | null;
  service_id: string | null;
}

/**
 * A conversation's protocol and team, and its members with their clients (and legal hold facts), in two statements of
 * one batch (a join, so no parameter list grows with the member count).
 */
export async function readConversationState(
  db: D1Database,
  conv: QualifiedRef,
  localDomain: string,
): Promise<{ meta: { protocol: string; team: string | null } | undefined; members: MemberClientRow[] }> {
  const [meta, members] = await db.batch([
    db.prepare('SELECT protocol, team FROM conversations WHERE domain = ? AND id = ?').bind(conv.domain, conv.id),
    db
      .prepare(
        `SELECT m.user_domain, m.user_id, c.id AS client, c.type = 'legalhold' AS legalhold,
                t.legalhold_status IS NOT NULL AS consent, m.service_provider, m.service_id
         FROM conversation_members m
         LEFT JOIN clients c ON m.user_domain = ? AND c.user = m.user_id
         LEFT JOIN team_members t ON m.user_domain = ? AND t.user = m.user_id
         WHERE m.conv_domain = ? AND m.conv_id = ?`,
      )
      .bind(localDomain, localDomain, conv.domain, conv.id),
  ]);
  return {
    meta: meta!.results[0] as { protocol: string; team: string | null } | undefined,
    members: members!.results as MemberClientRow[],
  };
}
