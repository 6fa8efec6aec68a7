import { ApiError } from '../../api/errors/api-error.js';
import { galleyErrors } from '../../api/errors/galley.js';
import type { TeamRole } from '../../../shared/db/schema.js';
import { teamStore } from './team-store.js';
import type { Deps } from '../../api/deps.js';

/** Roles holding wire's `ChangeTeamFeature` (a hidden permission of owners and admins). */
const CHANGE_FEATURES: readonly TeamRole[] = ['owner', 'admin'];

/** Who gets the team's member events (join, leave, update). */
export const TEAM_ADMINS: readonly TeamRole[] = ['owner', 'admin'];

/** A user's role in the team: 403 `no-team-member` when they have none (also for unknown teams). */
export async function requireTeamMember(d: Deps, user: string, team: string): Promise<TeamRole> {
  const role = await teamStore.roleOf(d.db, team, user);
  if (role === undefined) throw new ApiError(galleyErrors.noTeamMember);
  return role;
}

/** The user may change the team's features (403 `no-team-member`, `operation-denied`). */
export async function requireFeatureAdmin(d: Deps, user: string, team: string): Promise<void> {
  if (!CHANGE_FEATURES.includes(await requireTeamMember(d, user, team)))
    throw new ApiError(galleyErrors.operationDenied);
}

/** Internal callers name any team: 404 `no-team` when it does not exist. */
export async function requireTeam(d: Deps, team: string): Promise<void> {
  if ((await teamStore.byId(d.db, team)) === undefined) throw new ApiError(galleyErrors.noTeam);
}
