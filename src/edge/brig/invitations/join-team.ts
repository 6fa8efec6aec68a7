import type { Db } from '../../db/client.js';
import { addTeamMember } from '../../galley/face.js';
import { invitationStore, type InvitationRow } from './invitation-store.js';

/** The statements making a user a member as invited, and using the invitation up. */
export function joinStatements(db: Db, user: string, inv: InvitationRow) {
  return [
    addTeamMember(db, { team: inv.team, user, role: inv.role, invitedBy: inv.createdBy }),
    invitationStore.remove(db, inv),
  ];
}
