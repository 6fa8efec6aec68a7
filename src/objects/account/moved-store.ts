/**
 * Whether the user's rows of versions before the Account object (in D1) have moved in: once they
 * have, D1 is not asked on the object's first call any more. `pending`: copied here, not yet
 * deleted from D1 (a later move only deletes them, so nothing claimed since comes back).
 */
export class MovedStore {
  constructor(private readonly sql: SqlStorage) {
    sql.exec('CREATE TABLE IF NOT EXISTS moved (user TEXT PRIMARY KEY, at INTEGER NOT NULL, pending INTEGER NOT NULL)');
  }

  has(): boolean {
    return this.sql.exec('SELECT 1 FROM moved').toArray().length > 0;
  }

  pending(): boolean {
    return this.sql.exec('SELECT 1 FROM moved WHERE pending = 1').toArray().length > 0;
  }

  mark(user: string, at: number, pending: boolean): void {
    this.sql.exec('INSERT OR REPLACE INTO moved (user, at, pending) VALUES (?, ?, ?)', user, at, pending ? 1 : 0);
  }

  /** The copied rows are gone from D1. */
  settle(): void {
    this.sql.exec('UPDATE moved SET pending = 0');
  }
}
