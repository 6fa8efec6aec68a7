import { and, count, eq, gt, inArray } from 'drizzle-orm';
import type { BatchStatement, Db } from '../../db/client.js';
import { mlsKeyPackages } from '../../../shared/db/schema.js';

export type KeyPackageRow = typeof mlsKeyPackages.$inferSelect;

/** A client's packages of one suite that are still valid at `now` (seconds). */
const validOf = (user: string, client: string, suite: number, now: number) =>
  and(
    eq(mlsKeyPackages.user, user),
    eq(mlsKeyPackages.client, client),
    eq(mlsKeyPackages.cipherSuite, suite),
    gt(mlsKeyPackages.notAfter, now),
  );

/** MLS key packages in D1 (table mls_key_packages). */
export const keyPackageStore = {
  /** Statements storing packages (a package uploaded again keeps one row). */
  insert(db: Db, rows: readonly KeyPackageRow[]): BatchStatement[] {
    return rows.map((r) => db.insert(mlsKeyPackages).values(r).onConflictDoNothing());
  },

  async count(db: Db, user: string, client: string, suite: number, now: number): Promise<number> {
    const [row] = await db
      .select({ n: count() })
      .from(mlsKeyPackages)
      .where(validOf(user, client, suite, now));
    return row?.n ?? 0;
  },

  /** Which of a user's clients hold a valid package of the suite at `now` (seconds). */
  async clientsWithPackages(db: Db, user: string, suite: number, now: number): Promise<Set<string>> {
    const rows = await db
      .selectDistinct({ client: mlsKeyPackages.client })
      .from(mlsKeyPackages)
      .where(
        and(eq(mlsKeyPackages.user, user), eq(mlsKeyPackages.cipherSuite, suite), gt(mlsKeyPackages.notAfter, now)),
      );
    return new Set(rows.map((r) => r.client));
  },

  /**
   * Hands out one valid package of each client and deletes it in the same statement, so that
   * concurrent claims never get the same package; all clients in one batch.
   */
  async claim(
    db: Db,
    user: string,
    clients: readonly string[],
    suite: number,
    now: number,
  ): Promise<Array<{ client: string; ref: string; data: string }>> {
    if (clients.length === 0) return [];
    const d1 = db.$client;
    const claim = d1.prepare(
      `DELETE FROM mls_key_packages WHERE ref = (
         SELECT ref FROM mls_key_packages
         WHERE user = ?1 AND client = ?2 AND cipher_suite = ?3 AND not_after > ?4
         LIMIT 1)
       RETURNING client, ref, data`,
    );
    const results = await d1.batch<{ client: string; ref: string; data: string }>(
      clients.map((client) => claim.bind(user, client, suite, now)),
    );
    return results.flatMap((r) => r.results);
  },

  /** Statement deleting some of a client's packages of one suite, by ref. */
  deleteRefs(db: Db, user: string, client: string, suite: number, refs: readonly string[]): BatchStatement {
    return db
      .delete(mlsKeyPackages)
      .where(
        and(
          eq(mlsKeyPackages.user, user),
          eq(mlsKeyPackages.client, client),
          eq(mlsKeyPackages.cipherSuite, suite),
          inArray(mlsKeyPackages.ref, [...refs]),
        ),
      );
  },

  /** Statement deleting all of a client's packages of these suites (replacing them). */
  deleteSuites(db: Db, user: string, client: string, suites: readonly number[]): BatchStatement {
    return db
      .delete(mlsKeyPackages)
      .where(
        and(
          eq(mlsKeyPackages.user, user),
          eq(mlsKeyPackages.client, client),
          inArray(mlsKeyPackages.cipherSuite, [...suites]),
        ),
      );
  },

  /** Statement deleting every package of a client (the client is deleted). */
  deleteClient(db: Db, user: string, client: string): BatchStatement {
    return db.delete(mlsKeyPackages).where(and(eq(mlsKeyPackages.user, user), eq(mlsKeyPackages.client, client)));
  },

  /** Statement deleting every package of a user (the account is deleted). */
  deleteUser(db: Db, user: string): BatchStatement {
    return db.delete(mlsKeyPackages).where(eq(mlsKeyPackages.user, user));
  },
};
