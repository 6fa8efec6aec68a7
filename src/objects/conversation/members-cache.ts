import type { QualifiedRef } from './types.js';

export interface ConversationState {
  exists: boolean;
  protocol: string;
  team: string | null;
  /** `domain/user` → the user's client ids (remote users: none known here). */
  clients: Map<string, Set<string>>;
}

export const userKey = (domain: string, user: string) => `${domain}/${user}`;

interface Row {
  user_domain: string;
  user_id: string;
  client: string | null;
}

/**
 * Reads a conversation's members and their clients from D1 in two statements (a join, so no
 * parameter list grows with the member count). The object keeps the result until told otherwise.
 */
export async function loadState(db: D1Database, conv: QualifiedRef, localDomain: string): Promise<ConversationState> {
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
  const row = meta!.results[0] as { protocol: string; team: string | null } | undefined;
  const clients = new Map<string, Set<string>>();
  for (const m of members!.results as unknown as Row[]) {
    const key = userKey(m.user_domain, m.user_id);
    let set = clients.get(key);
    if (set === undefined) clients.set(key, (set = new Set()));
    if (m.client !== null) set.add(m.client);
  }
  return { exists: row !== undefined, protocol: row?.protocol ?? 'proteus', team: row?.team ?? null, clients };
}
