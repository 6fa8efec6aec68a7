import { eq, sql } from 'drizzle-orm';
import { integer, sqliteTable, text, type BaseSQLiteDatabase } from 'drizzle-orm/sqlite-core';

/** A drizzle database whose statements can join the caller's batch (the edge's view of D1). */
export type PlacementDb = BaseSQLiteDatabase<'async', unknown>;

// The tables keep the word `home` of their first version: a user's placed shard.
const placed = sqliteTable('notification_homes', {
  user: text('user').primaryKey(),
  home: integer('home').notNull(),
});
const placement = sqliteTable('notification_placement', {
  id: integer('id').primaryKey(),
  home: integer('home').notNull(),
  filled: integer('filled').notNull(),
  perObject: integer('per_object').notNull(),
});

/**
 * Users' placed shards in D1 (migrations/0017): `notification_homes` says which shard holds each
 * user's stream, queues and sockets, chosen once when the account is made.
 */
export const placementStore = {
  /**
   * The two statements that give a new user the open shard, for the account's own batch: the
   * placement moves to the next shard when the open one has `per_object` users.
   */
  place(db: PlacementDb, user: string): unknown[] {
    const full = sql`${placement.filled} >= ${placement.perObject}`;
    return [
      db
        .update(placement)
        .set({
          home: sql`${placement.home} + (${full})`,
          filled: sql`CASE WHEN ${full} THEN 1 ELSE ${placement.filled} + 1 END`,
        })
        .where(eq(placement.id, 0)),
      db.insert(placed).values({ user, home: sql`(SELECT home FROM notification_placement WHERE id = 0)` }),
    ];
  },

  /** The placed shards of those users that have one (one statement, whatever the number of users). */
  async of(db: D1Database, users: readonly string[]): Promise<Map<string, number>> {
    const { results } = await db
      .prepare('SELECT user, home FROM notification_homes WHERE user IN (SELECT value FROM json_each(?))')
      .bind(JSON.stringify(users))
      .all<{ user: string; home: number }>();
    return new Map(results.map((r) => [r.user, r.home]));
  },
};
