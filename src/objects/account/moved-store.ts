/**
 * What moves in from D1 on an Account object's first call, by version: 1 prekeys, key packages
 * and cookies; 2 also the user's side of each connection, properties and consents; 3 also the
 * ids of the user's conversations (copied: their members stay in D1). An object
 * moved at an older version moves again (what it had moved is gone from D1, so only the newer
 * kinds come).
 */
const MOVE_VERSION = 3;

/**
 * Whether the user's rows of versions before the Account object (in D1) have moved in: once they
 * have, D1 is not asked on the object's first call any more. `pending`: copied here, not yet
 * deleted from D1 (a later move only deletes them, so nothing claimed since comes back).
 */
export class MovedStore {
  constructor(private readonly sql: SqlStorage) {
    sql.exec('CREATE TABLE IF NOT EXISTS moved (user TEXT PRIMARY KEY, at INTEGER NOT NULL, pending INTEGER NOT NULL)');
    try {
      sql.exec('ALTER TABLE moved ADD COLUMN version INTEGER NOT NULL DEFAULT 1');
    } catch {
      // The column is there already.
    }
  }

  has(): boolean {
    return this.sql.exec('SELECT 1 FROM moved WHERE version >= ?', MOVE_VERSION).toArray().length > 0;
  }

  pending(): boolean {
    return this.sql.exec('SELECT 1 FROM moved WHERE pending = 1').toArray().length > 0;
  }

  mark(user: string, at: number, pending: boolean): void {
    this.sql.exec(
      'INSERT OR REPLACE INTO moved (user, at, pending, version) VALUES (?, ?, ?, ?)',
      user,
      at,
      pending ? 1 : 0,
      MOVE_VERSION,
    );
  }

  /** The copied rows are gone from D1. */
  settle(): void {
    this.sql.exec('UPDATE moved SET pending = 0');
  }
}
