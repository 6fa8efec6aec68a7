import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { userProperties } from '../../db/schema.js';

/** User properties (D1 table user_properties). */
export const propertyStore = {
  async get(db: Db, user: string, key: string): Promise<string | undefined> {
    const [row] = await db
      .select({ value: userProperties.value })
      .from(userProperties)
      .where(and(eq(userProperties.user, user), eq(userProperties.key, key)));
    return row?.value;
  },
  async all(db: Db, user: string): Promise<Array<{ key: string; value: string }>> {
    return db
      .select({ key: userProperties.key, value: userProperties.value })
      .from(userProperties)
      .where(eq(userProperties.user, user))
      .orderBy(userProperties.key);
  },
  /**
   * Sets a property unless that would add a key beyond `max` (overwriting is always allowed).
   * One statement, so concurrent writers cannot both slip under the limit.
   */
  async set(db: Db, user: string, key: string, value: string, max: number): Promise<boolean> {
    const rows = await db.all<{ key: string }>(sql`
      INSERT INTO user_properties (user, key, value)
      SELECT ${user}, ${key}, ${value}
      WHERE (SELECT COUNT(*) FROM user_properties WHERE user = ${user} AND key <> ${key}) < ${max}
      ON CONFLICT (user, key) DO UPDATE SET value = excluded.value
      RETURNING key`);
    return rows.length > 0;
  },
  async remove(db: Db, user: string, key: string): Promise<void> {
    await db.delete(userProperties).where(and(eq(userProperties.user, user), eq(userProperties.key, key)));
  },
  async clear(db: Db, user: string): Promise<void> {
    await this.clearStatement(db, user);
  },
  clearStatement(db: Db, user: string) {
    return db.delete(userProperties).where(eq(userProperties.user, user));
  },
};
