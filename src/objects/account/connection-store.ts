import type { ConnectionRecord, Relation } from '../../shared/accounts/material.js';

interface Row extends Record<string, SqlStorageValue> {
  to_domain: string;
  to_user: string;
  status: string;
  conv_domain: string | null;
  conv_id: string | null;
  last_update: number;
  status_before_legalhold: string | null;
}

/**
 * The user's side of each of their connections, in the user's Account object; the other side is
 * the other user's (in their object, or on their backend). Writes come as effects, which may be
 * carried out late: a record never gives way to an older one, nor is it forgotten by an older word.
 */
export class ConnectionStore {
  constructor(private readonly sql: SqlStorage) {
    sql.exec(`CREATE TABLE IF NOT EXISTS connections (
      to_domain TEXT NOT NULL, to_user TEXT NOT NULL, status TEXT NOT NULL, conv_domain TEXT, conv_id TEXT,
      last_update INTEGER NOT NULL, status_before_legalhold TEXT, PRIMARY KEY (to_domain, to_user))`);
  }

  /** A new side, or a new status of one (its conversation stays the one it was made with). */
  put(r: ConnectionRecord): void {
    this.sql.exec(
      `INSERT INTO connections (to_domain, to_user, status, conv_domain, conv_id, last_update, status_before_legalhold)
       VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (to_domain, to_user) DO UPDATE SET status = excluded.status, last_update = excluded.last_update,
         status_before_legalhold = excluded.status_before_legalhold
       WHERE excluded.last_update >= connections.last_update`,
      r.toDomain,
      r.toUser,
      r.status,
      r.convDomain,
      r.convId,
      r.lastUpdate,
      r.statusBeforeLegalhold,
    );
  }

  get(user: string, domain: string, to: string): ConnectionRecord | undefined {
    const [row] = this.sql
      .exec<Row>('SELECT * FROM connections WHERE to_domain = ? AND to_user = ?', domain, to)
      .toArray();
    return row === undefined ? undefined : record(user, row);
  }

  /** Those with one of these statuses (all when none is named), ordered by (domain, user). */
  list(user: string, statuses?: readonly Relation[]): ConnectionRecord[] {
    const rows = this.sql.exec<Row>('SELECT * FROM connections ORDER BY to_domain, to_user').toArray();
    return rows.map((r) => record(user, r)).filter((r) => statuses === undefined || statuses.includes(r.status));
  }

  /** How many have one of these statuses. */
  count(statuses: readonly Relation[]): number {
    return this.sql
      .exec<{ n: number }>(
        'SELECT count(*) AS n FROM connections WHERE status IN (SELECT value FROM json_each(?))',
        JSON.stringify(statuses),
      )
      .one().n;
  }

  /** Those to these users of `domain` with one of these statuses: a lookup each, whatever the user has. */
  among(user: string, domain: string, others: readonly string[], statuses: readonly Relation[]): ConnectionRecord[] {
    return others.flatMap((to) => {
      const r = this.get(user, domain, to);
      return r !== undefined && statuses.includes(r.status) ? [r] : [];
    });
  }

  /** At most `size`, ordered by (domain, user), after the given position. */
  page(user: string, size: number, after?: { domain: string; user: string }): ConnectionRecord[] {
    const rows =
      after === undefined
        ? this.sql.exec<Row>('SELECT * FROM connections ORDER BY to_domain, to_user LIMIT ?', size)
        : this.sql.exec<Row>(
            `SELECT * FROM connections WHERE to_domain > ? OR (to_domain = ? AND to_user > ?)
             ORDER BY to_domain, to_user LIMIT ?`,
            after.domain,
            after.domain,
            after.user,
            size,
          );
    return rows.toArray().map((r) => record(user, r));
  }

  /** Forgets the connection to `domain/to`, unless it changed after `at` (ms). */
  forget(domain: string, to: string, at: number): void {
    this.sql.exec('DELETE FROM connections WHERE to_domain = ? AND to_user = ? AND last_update <= ?', domain, to, at);
  }

  /** Forgets the connections to users of `domain` (no longer federating). */
  forgetDomain(domain: string): void {
    this.sql.exec('DELETE FROM connections WHERE to_domain = ?', domain);
  }

  forgetAll(): void {
    this.sql.exec('DELETE FROM connections');
  }
}

const record = (user: string, r: Row): ConnectionRecord => ({
  fromUser: user,
  toDomain: r.to_domain,
  toUser: r.to_user,
  status: r.status as Relation,
  convDomain: r.conv_domain,
  convId: r.conv_id,
  lastUpdate: r.last_update,
  statusBeforeLegalhold: r.status_before_legalhold as Relation | null,
});
