import { and, eq, inArray, lt } from 'drizzle-orm';
import { inChunks } from '../../db/chunks.js';
import { userNames } from '../../../shared/db/schema.js';
import type { Db } from '../../db/client.js';

/** A claim of a name: its user, and when they claimed it (ms). */
export interface NameClaim {
  user: string;
  at: number;
}

/** Claims of names (table user_names), each in its name's partition: see user-names.ts. */
export const nameStore = {
  /** Claims a free name for `user`, or renews their own claim; false when another user holds it. */
  async claim(db: Db, name: string, user: string, at: number): Promise<boolean> {
    const rows = await db
      .insert(userNames)
      .values({ name, user, at })
      .onConflictDoUpdate({ target: userNames.name, set: { at }, where: eq(userNames.user, user) })
      .returning({ user: userNames.user });
    return rows.length > 0;
  },
  async holder(db: Db, name: string): Promise<NameClaim | undefined> {
    const [row] = await db
      .select({ user: userNames.user, at: userNames.at })
      .from(userNames)
      .where(eq(userNames.name, name));
    return row;
  },
  async holders(db: Db, names: readonly string[]): Promise<Array<NameClaim & { name: string }>> {
    return inChunks(names, 1, (chunk) => db.select().from(userNames).where(inArray(userNames.name, chunk)));
  },
  /** Takes the name over from a claim seen as stale, unless it changed since; true when taken. */
  async takeOver(db: Db, name: string, from: NameClaim, user: string, at: number): Promise<boolean> {
    const rows = await db
      .update(userNames)
      .set({ user, at })
      .where(and(eq(userNames.name, name), eq(userNames.user, from.user), eq(userNames.at, from.at)))
      .returning({ user: userNames.user });
    return rows.length > 0;
  },
  /** Drops the user's claim made before `before` (a claim renewed since stays). */
  async release(db: Db, name: string, user: string, before: number): Promise<void> {
    await db.delete(userNames).where(and(eq(userNames.name, name), eq(userNames.user, user), lt(userNames.at, before)));
  },
};
