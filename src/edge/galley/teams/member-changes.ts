// Changes to a team member that both the team's admins (through galley's routes) and the team's
// identity provider (through SCIM) make, with the events the team hears.
import type { Config } from '../../../shared/config/index.js';
import type { AccessClaims } from '../../auth/tokens.js';
import type { Db } from '../../db/client.js';
import type { TeamRole } from '../../../shared/db/schema.js';
import { commitChange } from '../../effects/commit-change.js';
import { publishEffect } from '../../events/publish.js';
import { teamEvent } from '../../events/team-events.js';
import { permissionsOf } from '../../api/team-permissions.js';
import { featureEnabled } from '../features/team-features.js';
import { TEAM_ADMINS } from './team-access.js';
import { teamStore } from './team-store.js';

/** A member's new role; the team's admins hear `team.member-update`. */
export async function changeMemberRole(
  env: Env,
  db: Db,
  config: Config,
  change: { team: string; user: string; role: TeamRole; origin?: AccessClaims | undefined },
): Promise<void> {
  // The admins once the role is set: the member among them exactly when the new role is an admin's.
  const others = (await teamStore.withRoles(db, change.team, TEAM_ADMINS)).filter((u) => u !== change.user);
  const admins = TEAM_ADMINS.includes(change.role) ? [...others, change.user] : others;
  const event = teamEvent('team.member-update', change.team, {
    user: change.user,
    permissions: permissionsOf(change.role),
  });
  await commitChange(env, config, {
    statements: [teamStore.setRole(db, change.team, change.user, change.role)],
    effects: [
      publishEffect(
        admins.map((u) => ({ user: u })),
        event,
        { origin: change.origin },
      ),
    ],
  });
}

/**
 * Who hears that a member left: every member, or only owners and admins with limitedEventFanout
 * on; the admins also hear of each conversation the member leaves.
 */
export async function memberLeaveAudience(
  db: Db,
  config: Config,
  team: string,
): Promise<{ admins: string[]; told: string[] }> {
  const limited = await featureEnabled(db, config, team, 'limitedEventFanout');
  const admins = await teamStore.withRoles(db, team, TEAM_ADMINS);
  const told = limited ? admins : await teamStore.memberIds(db, team, config.galley.settings.maxTeamSize);
  return { admins, told };
}

interface MemberLeave {
  team: string;
  user: string;
  told: readonly string[];
  origin?: AccessClaims | undefined;
}

const memberLeaveRecipients = (leave: MemberLeave) =>
  leave.told.filter((u) => u !== leave.user).map((u) => ({ user: u }));
const memberLeaveEvent = (leave: MemberLeave) => teamEvent('team.member-leave', leave.team, { user: leave.user });

/** `team.member-leave` to the audience (the member who left excepted), as an effect of the member's removal. */
export const memberLeaveEffect = (leave: MemberLeave) =>
  publishEffect(memberLeaveRecipients(leave), memberLeaveEvent(leave), { origin: leave.origin });
