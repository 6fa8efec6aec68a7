import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { ApiError } from '../../api/errors/api-error.js';
import { galleyErrors } from '../../api/errors/galley.js';
import { self } from '../../api/self.js';
import { database, type Db } from '../../db/client.js';
import type { TeamRole } from '../../../shared/db/schema.js';
import { teamStore } from './team-store.js';

/** Roles holding wire's `ChangeTeamFeature` (a hidden permission of owners and admins). */
const CHANGE_FEATURES: readonly TeamRole[] = ['owner', 'admin'];

/** Who gets the team's member events (join, leave, update). */
export const TEAM_ADMINS: readonly TeamRole[] = ['owner', 'admin'];

/** The caller's role in the team: 403 `no-team-member` when they have none (also for unknown teams). */
export async function requireTeamMember(c: Context<AppEnv>, team: string): Promise<{ db: Db; role: TeamRole }> {
  const db = database(c.env.DB);
  const role = await teamStore.roleOf(db, team, self(c).user);
  if (role === undefined) throw new ApiError(galleyErrors.noTeamMember);
  return { db, role };
}

export async function requireFeatureAdmin(c: Context<AppEnv>, team: string): Promise<Db> {
  const { db, role } = await requireTeamMember(c, team);
  if (!CHANGE_FEATURES.includes(role)) throw new ApiError(galleyErrors.operationDenied);
  return db;
}

/** Internal callers name any team: 404 `no-team` when it does not exist. */
export async function requireTeam(c: Context<AppEnv>, team: string): Promise<Db> {
  const db = database(c.env.DB);
  if ((await teamStore.byId(db, team)) === undefined) throw new ApiError(galleyErrors.noTeam);
  return db;
}
