import { ApiError } from '../../api/errors/api-error.js';
import { federationErrors } from '../../api/errors/federation.js';
import { galleyErrors } from '../../api/errors/galley.js';
import type { QualifiedId } from '../../api/schemas/common.js';
import { teamStore } from '../teams/team-store.js';
import type { ConversationRow } from './conversation-store.js';
import type { Deps } from '../../api/deps.js';

/**
 * Invitees must be connected (or teammates in a team conversation) and allowed by the access
 * roles; users of other backends only with `federating` (galley's enableFederation).
 */
export async function checkInvitees(
  d: Deps,
  conv: ConversationRow,
  me: QualifiedId,
  users: QualifiedId[],
  federating = false,
) {
  if (!federating && users.some((u) => u.domain !== me.domain))
    throw new ApiError(federationErrors.federationNotEnabled);
  let outsiders = users;
  if (conv.team !== null) {
    const local = users.filter((u) => u.domain === me.domain).map((u) => u.id);
    const teammates = await teamStore.membersAmong(d.db, conv.team, local);
    outsiders = outsiders.filter((u) => u.domain !== me.domain || !teammates.has(u.id));
    if (outsiders.length > 0 && !conv.accessRole.includes('non_team_member'))
      throw new ApiError(galleyErrors.noTeamMember);
  }
  if (!(await d.users.connectedToAll(me, outsiders))) throw new ApiError(galleyErrors.notConnected);
}
