import { and, asc, eq, gt, gte, lt, or } from 'drizzle-orm';
import { uuidV1Key } from '../../../shared/uuid-v1.js';
import { type Db, partitionFor, partitionsOf } from '../../db/client.js';
import { teamNotifications } from '../../../shared/db/schema.js';

export type TeamNotificationRow = typeof teamNotifications.$inferSelect;
export type TeamEventPayload = Record<string, unknown>;

/**
 * galley's team queue (D1 table team_notifications, in the partition of the team's slot). Rows are ordered by (key, id), the key
 * being the time in the v1 UUID id (`uuidV1Key`), so "since an id" and "younger than the TTL"
 * are both key comparisons on the primary key.
 */
export const teamNotificationStore = {
  append(db: Db, team: string, id: string, payload: TeamEventPayload[]) {
    return partitionFor(db, team)
      .insert(teamNotifications)
      .values({ team, key: uuidV1Key(id), id, payload })
      .onConflictDoNothing();
  },
  /**
   * Up to `limit` rows of the team from `since` on (itself included when it exists), or from the
   * start, never older than `cutoff` (a `timeKey`).
   */
  async page(
    db: Db,
    team: string,
    q: { since?: string | undefined; cutoff: string; limit: number },
  ): Promise<TeamNotificationRow[]> {
    const fromSince =
      q.since === undefined
        ? undefined
        : or(
            gt(teamNotifications.key, uuidV1Key(q.since)),
            and(eq(teamNotifications.key, uuidV1Key(q.since)), gte(teamNotifications.id, q.since)),
          );
    return partitionFor(db, team)
      .select()
      .from(teamNotifications)
      .where(and(eq(teamNotifications.team, team), gte(teamNotifications.key, q.cutoff), fromSince))
      .orderBy(asc(teamNotifications.key), asc(teamNotifications.id))
      .limit(q.limit);
  },
  /** Removes every team's rows older than `cutoff` (a `timeKey`); how many went. */
  async removeExpired(db: Db, cutoff: string): Promise<number> {
    const results = await Promise.all(
      partitionsOf(db).map((part) => part.delete(teamNotifications).where(lt(teamNotifications.key, cutoff))),
    );
    return results.reduce((n, r) => n + r.meta.changes, 0);
  },
  /** Statement removing a team's queue (team deletion). */
  removeTeam(db: Db, team: string) {
    return partitionFor(db, team).delete(teamNotifications).where(eq(teamNotifications.team, team));
  },
};
