import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { prekeys } from '../../../shared/db/schema.js';
import { LAST_RESORT_ID, type Prekey } from '../../api/schemas/prekeys.js';

/** Proteus prekeys (D1 table prekeys). */
export const prekeyStore = {
  /** Statements storing prekeys (same ids are replaced), for the client's batch. */
  upsert(db: Db, user: string, client: string, keys: readonly Prekey[]) {
    return keys.map((k) =>
      db
        .insert(prekeys)
        .values({ user, client, id: k.id, key: k.key })
        .onConflictDoUpdate({ target: [prekeys.user, prekeys.client, prekeys.id], set: { key: k.key } }),
    );
  },
  deleteAll(db: Db, user: string, client: string) {
    return db.delete(prekeys).where(and(eq(prekeys.user, user), eq(prekeys.client, client)));
  },
  deleteAllOf(db: Db, user: string) {
    return db.delete(prekeys).where(eq(prekeys.user, user));
  },
  async ids(db: Db, user: string, client: string): Promise<number[]> {
    const rows = await db
      .select({ id: prekeys.id })
      .from(prekeys)
      .where(and(eq(prekeys.user, user), eq(prekeys.client, client)))
      .orderBy(prekeys.id);
    return rows.map((r) => r.id);
  },
  /**
   * Hands out one prekey of the client: the lowest ordinary one, deleted in the same statement so
   * that two claims never get the same key; when none is left, the last-resort key, which stays.
   */
  async claim(db: Db, user: string, client: string): Promise<Prekey | undefined> {
    const [claimed] = await db.all<Prekey>(sql`
      DELETE FROM prekeys WHERE rowid = (
        SELECT rowid FROM prekeys WHERE user = ${user} AND client = ${client} AND id <> ${LAST_RESORT_ID}
        ORDER BY id LIMIT 1)
      RETURNING id, key`);
    if (claimed !== undefined) return claimed;
    const [last] = await db
      .select({ id: prekeys.id, key: prekeys.key })
      .from(prekeys)
      .where(and(eq(prekeys.user, user), eq(prekeys.client, client), eq(prekeys.id, LAST_RESORT_ID)));
    return last;
  },
};
