import type { Db } from '../../db/client.js';
import { addTeamMember } from '../../galley/face.js';
import { invitationStore, type InvitationRow } from './invitation-store.js';

/** The statement making a user a member as invited (in the partition of the user's slot). */
export function memberAsInvited(db: Db, user: string, inv: InvitationRow) {
  return addTeamMember(db, { team: inv.team, user, role: inv.role, invitedBy: inv.createdBy });
}

/** The statements making an account made for the team a member as invited, and using the invitation up. */
export function joinStatements(db: Db, user: string, inv: InvitationRow) {
  return [memberAsInvited(db, user, inv), invitationStore.remove(db, inv)];
}
