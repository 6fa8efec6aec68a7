import { eq, sql } from 'drizzle-orm';
import type { DrizzleD1Database } from 'drizzle-orm/d1';
import { connections, cookies, mlsKeyPackages, prekeys } from '../db/schema.js';
import type { LegacyAccountRows } from './material.js';

/**
 * What versions before the Account object kept of a user in D1: prekeys, key packages, cookies
 * and their side of each connection (`prekeys`, `mls_key_packages`, `cookies`, `connections`). Nothing writes them any more; each user's rows move
 * into their Account object (its first call, or the sweep of brig/clients/move-material.ts),
 * which deletes them here.
 */
export const legacyAccountStore = {
  async ofUser(db: DrizzleD1Database, user: string): Promise<LegacyAccountRows> {
    const [keys, packages, sessions, sides] = await db.batch([
      db
        .select({ client: prekeys.client, id: prekeys.id, key: prekeys.key })
        .from(prekeys)
        .where(eq(prekeys.user, user)),
      db
        .select({
          ref: mlsKeyPackages.ref,
          client: mlsKeyPackages.client,
          cipherSuite: mlsKeyPackages.cipherSuite,
          data: mlsKeyPackages.data,
          notAfter: mlsKeyPackages.notAfter,
        })
        .from(mlsKeyPackages)
        .where(eq(mlsKeyPackages.user, user)),
      db.select().from(cookies).where(eq(cookies.user, user)),
      db.select().from(connections).where(eq(connections.fromUser, user)),
    ]);
    return { prekeys: keys, keyPackages: packages, cookies: sessions, connections: sides };
  },

  async forget(db: DrizzleD1Database, user: string): Promise<void> {
    await db.batch([
      db.delete(prekeys).where(eq(prekeys.user, user)),
      db.delete(mlsKeyPackages).where(eq(mlsKeyPackages.user, user)),
      db.delete(cookies).where(eq(cookies.user, user)),
      db.delete(connections).where(eq(connections.fromUser, user)),
    ]);
  },

  /** Some users who still have rows here (at most `limit`). */
  async users(db: DrizzleD1Database, limit: number): Promise<string[]> {
    const rows = await db.all<{ user: string }>(sql`
      SELECT user FROM (SELECT DISTINCT user FROM prekeys LIMIT ${limit})
      UNION SELECT user FROM (SELECT DISTINCT user FROM mls_key_packages LIMIT ${limit})
      UNION SELECT user FROM (SELECT DISTINCT user FROM cookies LIMIT ${limit})
      UNION SELECT user FROM (SELECT DISTINCT from_user AS user FROM connections LIMIT ${limit})
      LIMIT ${limit}`);
    return rows.map((r) => r.user);
  },
};
