import { ApiError } from '../../api/errors/api-error.js';
import { galleyErrors } from '../../api/errors/galley.js';
import { hasHiddenPerm, type HiddenPermName } from '../../api/team-permissions.js';
import { requireTeamMember } from '../teams/team-access.js';
import type { Deps } from '../../api/deps.js';

/** The user is a member holding this legal hold permission (403 `no-team-member`, `operation-denied`). */
export async function requireLegalholdAdmin(d: Deps, user: string, team: string, perm: HiddenPermName): Promise<void> {
  if (!hasHiddenPerm(await requireTeamMember(d, user, team), perm)) throw new ApiError(galleyErrors.operationDenied);
}
