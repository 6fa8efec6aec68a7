import type { ClaimedKeyPackage, KeyPackage } from '../../shared/accounts/material.js';

/** The MLS key packages of a user's clients, in the user's Account object. */
export class KeyPackageStore {
  constructor(private readonly sql: SqlStorage) {
    sql.exec(`CREATE TABLE IF NOT EXISTS key_packages (
      ref TEXT PRIMARY KEY, client TEXT NOT NULL, suite INTEGER NOT NULL, data TEXT NOT NULL,
      not_after INTEGER NOT NULL)`);
    sql.exec('CREATE INDEX IF NOT EXISTS key_packages_by_client ON key_packages (client, suite, not_after)');
  }

  /** Stores packages; one uploaded again keeps its row. */
  add(packages: readonly KeyPackage[]): void {
    for (const p of packages)
      this.sql.exec(
        'INSERT OR IGNORE INTO key_packages (ref, client, suite, data, not_after) VALUES (?, ?, ?, ?, ?)',
        p.ref,
        p.client,
        p.cipherSuite,
        p.data,
        p.notAfter,
      );
  }

  /** How many of the client's packages of the suite are valid at `now` (seconds). */
  count(client: string, suite: number, now: number): number {
    const [row] = this.sql
      .exec<{ n: number }>(
        'SELECT count(*) AS n FROM key_packages WHERE client = ? AND suite = ? AND not_after > ?',
        client,
        suite,
        now,
      )
      .toArray();
    return row?.n ?? 0;
  }

  /** The clients holding a package of the suite valid at `now`. */
  clientsWith(suite: number, now: number): string[] {
    return this.sql
      .exec<{ client: string }>(
        'SELECT DISTINCT client FROM key_packages WHERE suite = ? AND not_after > ? ORDER BY client',
        suite,
        now,
      )
      .toArray()
      .map((r) => r.client);
  }

  /** Hands out (and deletes) one valid package of the client, if it has one. */
  claim(client: string, suite: number, now: number): ClaimedKeyPackage | undefined {
    const [row] = this.sql
      .exec<{ ref: string; data: string }>(
        'SELECT ref, data FROM key_packages WHERE client = ? AND suite = ? AND not_after > ? LIMIT 1',
        client,
        suite,
        now,
      )
      .toArray();
    if (row === undefined) return undefined;
    this.sql.exec('DELETE FROM key_packages WHERE ref = ?', row.ref);
    return { client, ref: row.ref, data: row.data };
  }

  deleteRefs(client: string, suite: number, refs: readonly string[]): void {
    for (const ref of refs)
      this.sql.exec('DELETE FROM key_packages WHERE ref = ? AND client = ? AND suite = ?', ref, client, suite);
  }

  deleteSuites(client: string, suites: readonly number[]): void {
    for (const suite of suites) this.sql.exec('DELETE FROM key_packages WHERE client = ? AND suite = ?', client, suite);
  }

  forgetClient(client: string): void {
    this.sql.exec('DELETE FROM key_packages WHERE client = ?', client);
  }

  forgetAll(): void {
    this.sql.exec('DELETE FROM key_packages');
  }
}
