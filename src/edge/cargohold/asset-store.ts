import { and, asc, eq, isNotNull, lte } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { assets } from '../../shared/db/schema.js';

export type AssetRow = typeof assets.$inferSelect;

/** Asset metadata (D1 table assets); the bytes are in object storage under the same key. */
export const assetStore = {
  async get(db: Db, key: string): Promise<AssetRow | undefined> {
    const [row] = await db.select().from(assets).where(eq(assets.key, key));
    return row;
  },
  async insert(db: Db, row: AssetRow): Promise<void> {
    await db.insert(assets).values(row);
  },
  async remove(db: Db, key: string): Promise<void> {
    await db.delete(assets).where(eq(assets.key, key));
  },
  /** Sets (or, with null, clears) the download token of the owner's asset; false if none matched. */
  async setToken(db: Db, key: string, owner: string, token: string | null): Promise<boolean> {
    const rows = await db
      .update(assets)
      .set({ token })
      .where(and(eq(assets.key, key), eq(assets.owner, owner)))
      .returning({ key: assets.key });
    return rows.length > 0;
  },
  /** Keys of assets expired by `now`, oldest first. */
  async expired(db: Db, now: number, limit: number): Promise<string[]> {
    const rows = await db
      .select({ key: assets.key })
      .from(assets)
      .where(and(isNotNull(assets.expiresAt), lte(assets.expiresAt, now)))
      .orderBy(asc(assets.expiresAt))
      .limit(limit);
    return rows.map((r) => r.key);
  },
};
