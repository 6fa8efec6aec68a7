import { ApiError } from '../../api/errors/api-error.js';
import { federationErrors } from '../../api/errors/federation.js';
import { galleyErrors } from '../../api/errors/galley.js';
import type { QualifiedId } from '../../api/schemas/common.js';
import { connectedToAll } from '../../brig/face.js';
import type { Db } from '../../db/client.js';
import { teamStore } from '../teams/team-store.js';
import type { ConversationRow } from './conversation-store.js';

/** Invitees must be reachable, connected (or teammates in a team conversation) and allowed by the access roles. */
export async function checkInvitees(db: Db, conv: ConversationRow, me: QualifiedId, users: QualifiedId[]) {
  if (users.some((u) => u.domain !== me.domain)) throw new ApiError(federationErrors.federationNotEnabled);
  let outsiders = users.map((u) => u.id);
  if (conv.team !== null) {
    const teammates = await teamStore.membersAmong(db, conv.team, outsiders);
    outsiders = outsiders.filter((u) => !teammates.has(u));
    if (outsiders.length > 0 && !conv.accessRole.includes('non_team_member'))
      throw new ApiError(galleyErrors.noTeamMember);
  }
  const connected = await connectedToAll(
    db,
    me,
    outsiders.map((id) => ({ id, domain: me.domain })),
  );
  if (!connected) throw new ApiError(galleyErrors.notConnected);
}
