import type { CookieRecord, CookieSelection } from '../../shared/accounts/material.js';

interface Row extends Record<string, SqlStorageValue> {
  id: number;
  kind: string;
  label: string | null;
  created_at: number;
  expires_at: number;
  successor: number | null;
  client: string | null;
  legalhold: number;
}

/** The user's `zuid` cookies, in the user's Account object. */
export class CookieStore {
  constructor(private readonly sql: SqlStorage) {
    sql.exec(`CREATE TABLE IF NOT EXISTS cookies (
      id INTEGER PRIMARY KEY, kind TEXT NOT NULL, label TEXT, created_at INTEGER NOT NULL,
      expires_at INTEGER NOT NULL, successor INTEGER, client TEXT, legalhold INTEGER NOT NULL)`);
  }

  put(c: CookieRecord): void {
    this.sql.exec(
      `INSERT OR REPLACE INTO cookies (id, kind, label, created_at, expires_at, successor, client, legalhold)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      c.id,
      c.kind,
      c.label,
      c.createdAt,
      c.expiresAt,
      c.successor,
      c.client,
      c.legalhold ? 1 : 0,
    );
  }

  get(user: string, id: number): CookieRecord | undefined {
    const [row] = this.sql.exec<Row>('SELECT * FROM cookies WHERE id = ?', id).toArray();
    return row === undefined ? undefined : record(user, row);
  }

  /** Oldest first. */
  list(user: string): CookieRecord[] {
    return this.sql
      .exec<Row>('SELECT * FROM cookies ORDER BY created_at, id')
      .toArray()
      .map((r) => record(user, r));
  }

  update(id: number, patch: { client?: string; successor?: number }): void {
    if (patch.client !== undefined) this.sql.exec('UPDATE cookies SET client = ? WHERE id = ?', patch.client, id);
    if (patch.successor !== undefined)
      this.sql.exec('UPDATE cookies SET successor = ? WHERE id = ?', patch.successor, id);
  }

  /**
   * Expired cookies go first, then superseded ones (renewed at `/access`), then the oldest, until
   * the user holds at most `limit` of this kind.
   */
  evictBeyond(kind: CookieRecord['kind'], limit: number, nowSeconds: number): void {
    this.sql.exec('DELETE FROM cookies WHERE expires_at < ?', nowSeconds);
    const ids = this.sql
      .exec<{ id: number }>('SELECT id FROM cookies WHERE kind = ? ORDER BY successor IS NULL, created_at, id', kind)
      .toArray()
      .map((r) => r.id);
    for (const id of ids.slice(0, Math.max(0, ids.length - limit)))
      this.sql.exec('DELETE FROM cookies WHERE id = ?', id);
  }

  revoke(which: CookieSelection): void {
    if (which.legalhold === true) {
      this.sql.exec('DELETE FROM cookies WHERE legalhold = 1');
      return;
    }
    const ids = which.ids ?? [];
    const labels = which.labels ?? [];
    if (ids.length === 0 && labels.length === 0) this.sql.exec('DELETE FROM cookies');
    for (const id of ids) this.sql.exec('DELETE FROM cookies WHERE id = ?', id);
    for (const label of labels) this.sql.exec('DELETE FROM cookies WHERE label = ?', label);
  }
}

const record = (user: string, r: Row): CookieRecord => ({
  user,
  id: r.id,
  kind: r.kind as CookieRecord['kind'],
  label: r.label,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  successor: r.successor,
  client: r.client,
  legalhold: r.legalhold === 1,
});
