import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { ApiError } from '../../api/errors/api-error.js';
import { galleyErrors } from '../../api/errors/galley.js';
import { hasHiddenPerm, type HiddenPermName } from '../../api/team-permissions.js';
import type { Db } from '../../db/client.js';
import { requireTeamMember } from '../teams/team-access.js';

/** The caller is a member holding this legal hold permission (403 `no-team-member`, `operation-denied`). */
export async function requireLegalholdAdmin(c: Context<AppEnv>, team: string, perm: HiddenPermName): Promise<Db> {
  const { db, role } = await requireTeamMember(c, team);
  if (!hasHiddenPerm(role, perm)) throw new ApiError(galleyErrors.operationDenied);
  return db;
}
