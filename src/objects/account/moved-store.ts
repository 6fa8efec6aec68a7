/**
 * Whether the user's material from before the Account object (D1 rows) has moved in: once it has,
 * the object alone holds it, and D1 is not asked again.
 */
export class MovedStore {
  constructor(private readonly sql: SqlStorage) {
    sql.exec('CREATE TABLE IF NOT EXISTS moved (user TEXT PRIMARY KEY, at INTEGER NOT NULL)');
  }

  has(): boolean {
    return this.sql.exec('SELECT 1 FROM moved').toArray().length > 0;
  }

  mark(user: string, at: number): void {
    this.sql.exec('INSERT OR IGNORE INTO moved (user, at) VALUES (?, ?)', user, at);
  }
}
