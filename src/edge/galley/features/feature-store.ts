import { and, eq } from 'drizzle-orm';
import { type Db, partitionFor } from '../../db/client.js';
import { teamFeatures } from '../../../shared/db/schema.js';
import type { FeatureName, FeatureStatus, LockStatus } from './registry.js';

/**
 * A team's own values of a feature (D1 table team_features, in the partition of the team's slot);
 * NULL columns fall back to the server's.
 */
export type TeamOverride = typeof teamFeatures.$inferSelect;

const key = (team: string, name: FeatureName) => and(eq(teamFeatures.team, team), eq(teamFeatures.name, name));

export const featureStore = {
  async all(db: Db, team: string): Promise<Map<string, TeamOverride>> {
    const rows = await partitionFor(db, team).select().from(teamFeatures).where(eq(teamFeatures.team, team));
    return new Map(rows.map((r) => [r.name, r]));
  },
  async one(db: Db, team: string, name: FeatureName): Promise<TeamOverride | undefined> {
    const [row] = await partitionFor(db, team).select().from(teamFeatures).where(key(team, name));
    return row;
  },
  /** Sets the given columns of the team's override, creating it. */
  set(
    db: Db,
    team: string,
    name: FeatureName,
    patch: { status?: FeatureStatus; lockStatus?: LockStatus; config?: Record<string, unknown> },
  ) {
    return partitionFor(db, team)
      .insert(teamFeatures)
      .values({
        team,
        name,
        status: patch.status ?? null,
        lockStatus: patch.lockStatus ?? null,
        config: patch.config ?? null,
      })
      .onConflictDoUpdate({ target: [teamFeatures.team, teamFeatures.name], set: patch });
  },
};
