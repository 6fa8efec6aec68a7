import type { QualifiedRef } from '../../shared/proteus/types.js';

/**
 * The conversations the user is a member of (here or on other backends), by id: what lists the
 * user's conversations (`/conversations/list-ids`, older versions' pages) reads. Joins and leaves
 * come as effects of the membership change, which may be carried out late: each entry keeps the
 * time of its last word, and an older word never overrides it (a leave stays as a row without
 * membership for that reason).
 */
export class ConversationListStore {
  constructor(private readonly sql: SqlStorage) {
    sql.exec(`CREATE TABLE IF NOT EXISTS conversation_ids (
      domain TEXT NOT NULL, id TEXT NOT NULL, member INTEGER NOT NULL, at INTEGER NOT NULL, PRIMARY KEY (domain, id))`);
    sql.exec('CREATE TABLE IF NOT EXISTS own_domain (id INTEGER PRIMARY KEY CHECK (id = 0), domain TEXT NOT NULL)');
  }

  /** The user's own domain, once a membership change named it (for the copy of earlier versions' rows). */
  ownDomain(): string | undefined {
    return this.sql.exec<{ domain: string }>('SELECT domain FROM own_domain WHERE id = 0').toArray()[0]?.domain;
  }

  keepOwnDomain(domain: string): void {
    this.sql.exec('INSERT OR REPLACE INTO own_domain (id, domain) VALUES (0, ?)', domain);
  }

  /** The user joined (`member`) or left the conversation at `at`, unless a newer word is kept. */
  put(conv: QualifiedRef, member: boolean, at: number): void {
    this.sql.exec(
      `INSERT INTO conversation_ids (domain, id, member, at) VALUES (?, ?, ?, ?)
       ON CONFLICT (domain, id) DO UPDATE SET member = excluded.member, at = excluded.at
       WHERE excluded.at >= conversation_ids.at`,
      conv.domain,
      conv.id,
      member ? 1 : 0,
      at,
    );
  }

  /** At most `size` of the user's conversations, ordered by (domain, id), after the given one. */
  page(size: number, after?: QualifiedRef): QualifiedRef[] {
    const rows =
      after === undefined
        ? this.sql.exec<{ domain: string; id: string }>(
            'SELECT domain, id FROM conversation_ids WHERE member = 1 ORDER BY domain, id LIMIT ?',
            size,
          )
        : this.sql.exec<{ domain: string; id: string }>(
            `SELECT domain, id FROM conversation_ids WHERE member = 1 AND (domain > ?1 OR (domain = ?1 AND id > ?2))
             ORDER BY domain, id LIMIT ?3`,
            after.domain,
            after.id,
            size,
          );
    return rows.toArray().map((r) => ({ domain: r.domain, id: r.id }));
  }

  /** At most `size` of the user's conversations of one domain, ordered by id, after `start`. */
  pageIn(domain: string, size: number, start?: string): string[] {
    const rows = this.sql.exec<{ id: string }>(
      'SELECT id FROM conversation_ids WHERE member = 1 AND domain = ? AND id > ? ORDER BY id LIMIT ?',
      domain,
      start ?? '',
      size,
    );
    return rows.toArray().map((r) => r.id);
  }

  forgetAll(): void {
    this.sql.exec('DELETE FROM conversation_ids');
  }
}
