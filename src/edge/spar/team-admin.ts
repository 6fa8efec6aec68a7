import type { Context } from 'hono';
import type { AppEnv } from '../api/app-env.js';
import { ApiError } from '../api/errors/api-error.js';
import { sparErrors } from '../api/errors/spar.js';
import { selfQualified } from '../api/self.js';
import { hasHiddenPerm, type HiddenPermName } from '../api/team-permissions.js';
import { userById, type UserRow } from '../brig/face.js';
import { database } from '../db/client.js';
import { roleInTeam } from '../galley/face.js';

/**
 * The caller and their team, when their role holds `perm`: 403 `no-team-member` outside a team,
 * 403 `insufficient-permissions` without it.
 */
export async function teamAdmin(c: Context<AppEnv>, perm: HiddenPermName): Promise<{ user: UserRow; team: string }> {
  const db = database(c.env.DB);
  const user = await userById(db, selfQualified(c));
  if (!user?.team) throw new ApiError(sparErrors.noTeamMember);
  const role = await roleInTeam(db, user.team, user.id);
  if (role === undefined) throw new ApiError(sparErrors.noTeamMember);
  if (!hasHiddenPerm(role, perm))
    throw new ApiError(sparErrors.insufficientPermissions, `You need permission ${perm}.`);
  return { user, team: user.team };
}
