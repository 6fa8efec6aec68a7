import type { QualifiedRef } from '../../shared/proteus/types.js';

export interface MemberClientRow {
  user_domain: string;
  user_id: string;
  /** One of the member's clients; null for a member without any (or a remote one). */
  client: string | null;
}

/**
 * A conversation's protocol and team, and its members with their clients, in two statements of
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
        `SELECT m.user_domain, m.user_id, c.id AS client FROM conversation_members m
         LEFT JOIN clients c ON m.user_domain = ? AND c.user = m.user_id
         WHERE m.conv_domain = ? AND m.conv_id = ?`,
      )
      .bind(localDomain, conv.domain, conv.id),
  ]);
  return {
    meta: meta!.results[0] as { protocol: string; team: string | null } | undefined,
    members: members!.results as MemberClientRow[],
  };
}
