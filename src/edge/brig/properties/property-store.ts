import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { userProperties } from '../../../shared/db/schema.js';

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
   * Sets a property unless that would add a key beyond `max` (overwriting is always allowed), as
   * one statement for the caller's batch, so concurrent writers cannot both slip under the limit.
   * Beyond the limit it writes a NULL value, which fails the batch (isNotNullViolation on
   * `user_properties.value`): nothing of it is written.
   */
  setStatement(db: Db, user: string, key: string, value: string, max: number) {
    const others = sql`(SELECT COUNT(*) FROM user_properties WHERE user = ${user} AND key <> ${key})`;
    return db
      .insert(userProperties)
      .values({ user, key, value: sql`CASE WHEN ${others} < ${max} THEN ${value} END` })
      .onConflictDoUpdate({ target: [userProperties.user, userProperties.key], set: { value: sql`excluded.value` } });
  },
  removeStatement(db: Db, user: string, key: string) {
    return db.delete(userProperties).where(and(eq(userProperties.user, user), eq(userProperties.key, key)));
  },
  clearStatement(db: Db, user: string) {
    return db.delete(userProperties).where(eq(userProperties.user, user));
  },
};
