import type { Db } from '../../db/client.js';
import { teamMembers } from '../../db/schema.js';
import { invitationStore, type InvitationRow } from './invitation-store.js';

/** The statements making a user a member as invited, and using the invitation up. */
export function joinStatements(db: Db, user: string, inv: InvitationRow) {
  return [
    db.insert(teamMembers).values({ team: inv.team, user, role: inv.role, invitedBy: inv.createdBy, invitedAt: Date.now() }),
    invitationStore.remove(db, inv.id),
  ];
}
