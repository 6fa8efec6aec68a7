import type { Config } from '../../../shared/config/index.js';
import type { Db } from '../../db/client.js';
import { teamMembers } from '../../db/schema.js';
import type { Env } from '../../env.js';
import { publish } from '../../events/publish.js';
import { teamEvent } from '../../events/team-events.js';
import { TEAM_ADMINS } from '../../galley/teams/team-access.js';
import { teamStore } from '../../galley/teams/team-store.js';
import { invitationStore, type InvitationRow } from './invitation-store.js';

/** The statements making a user a member as invited, and using the invitation up. */
export function joinStatements(db: Db, user: string, inv: InvitationRow) {
  return [
    db.insert(teamMembers).values({ team: inv.team, user, role: inv.role, invitedBy: inv.createdBy, invitedAt: Date.now() }),
    invitationStore.remove(db, inv.id),
  ];
}

/** After joining: the team's owners and admins get `team.member-join`. */
export async function announceJoin(env: Env, db: Db, config: Config, team: string, user: string): Promise<void> {
  const admins = await teamStore.withRoles(db, team, TEAM_ADMINS);
  await publish(env, config, admins.map((u) => ({ user: u })), teamEvent('team.member-join', team, { user }));
}
