/** How long the marks of applied changes are kept: far longer than the sweep takes to carry a change out again. */
const KEPT_MS = 7 * 24 * 3600 * 1000;

/**
 * The changes galley made of the conversation that were applied here, by their mark: a change
 * carried out again (the sweep, after a crash) is applied once. Marks older than a week go.
 */
export class AppliedStore {
  constructor(private readonly sql: SqlStorage) {
    sql.exec('CREATE TABLE IF NOT EXISTS applied (mark TEXT PRIMARY KEY, at INTEGER NOT NULL)');
  }

  has(mark: string): boolean {
    return this.sql.exec('SELECT 1 FROM applied WHERE mark = ?', mark).toArray().length > 0;
  }

  /** Inside the change's transaction. */
  add(mark: string, now: number): void {
    this.sql.exec('INSERT OR IGNORE INTO applied (mark, at) VALUES (?, ?)', mark, now);
    this.sql.exec('DELETE FROM applied WHERE at < ?', now - KEPT_MS);
  }
}
