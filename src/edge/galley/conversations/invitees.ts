import { ApiError } from '../../api/errors/api-error.js';
import { federationErrors } from '../../api/errors/federation.js';
import { galleyErrors } from '../../api/errors/galley.js';
import type { QualifiedId } from '../../api/schemas/common.js';
import { connectedToAll } from '../../brig/face.js';
import type { Db } from '../../db/client.js';
import { teamStore } from '../teams/team-store.js';
import type { ConversationRow } from './conversation-store.js';

/**
 * Invitees must be connected (or teammates in a team conversation) and allowed by the access
 * roles; users of other backends only with `federating` (galley's enableFederation).
 */
export async function checkInvitees(
  db: Db,
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
    const teammates = await teamStore.membersAmong(db, conv.team, local);
    outsiders = outsiders.filter((u) => u.domain !== me.domain || !teammates.has(u.id));
    if (outsiders.length > 0 && !conv.accessRole.includes('non_team_member'))
      throw new ApiError(galleyErrors.noTeamMember);
  }
  if (!(await connectedToAll(db, me, outsiders))) throw new ApiError(galleyErrors.notConnected);
}
