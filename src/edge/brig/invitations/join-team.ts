import type { Db } from '../../db/client.js';
import { teamStore } from '../../galley/teams/team-store.js';
import { invitationStore, type InvitationRow } from './invitation-store.js';

/** The statements making a user a member as invited, and using the invitation up. */
export function joinStatements(db: Db, user: string, inv: InvitationRow) {
  return [
    teamStore.addMember(db, { team: inv.team, user, role: inv.role, invitedBy: inv.createdBy }),
    invitationStore.remove(db, inv.id),
  ];
}
