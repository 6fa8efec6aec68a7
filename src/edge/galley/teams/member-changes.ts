// Changes to a team member that both the team's admins (through galley's routes) and the team's
// identity provider (through SCIM) make, with the events the team hears.
import type { Config } from '../../../shared/config/index.js';
import type { AccessClaims } from '../../auth/tokens.js';
import { deleteAccount, userById } from '../../brig/face.js';
import type { Db } from '../../db/client.js';
import type { TeamRole } from '../../db/schema.js';
import { publish } from '../../events/publish.js';
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
  await teamStore.setRole(db, change.team, change.user, change.role).run();
  const admins = await teamStore.withRoles(db, change.team, TEAM_ADMINS);
  const event = teamEvent('team.member-update', change.team, {
    user: change.user,
    permissions: permissionsOf(change.role),
  });
  await publish(
    env,
    config,
    admins.map((u) => ({ user: u })),
    event,
    { origin: change.origin },
  );
}

/**
 * Removes a member of a binding team, deleting their account. The team hears
 * `team.member-leave` (only owners and admins with limitedEventFanout on), and its admins get
 * `member-leave` for each conversation the member was in.
 */
export async function removeMemberAccount(
  env: Env,
  db: Db,
  config: Config,
  removal: { team: string; user: string; origin?: AccessClaims | undefined },
): Promise<void> {
  const { team, user: uid } = removal;
  const limited = await featureEnabled(db, config, team, 'limitedEventFanout');
  const admins = await teamStore.withRoles(db, team, TEAM_ADMINS);
  const told = limited ? admins : await teamStore.memberIds(db, team, config.galley.settings.maxTeamSize);
  const user = await userById(db, { id: uid, domain: config.brig.optSettings.setFederationDomain });
  if (user !== undefined) await deleteAccount(env, db, config, user, undefined, admins);
  else await teamStore.removeMember(db, uid).run();
  await publish(
    env,
    config,
    told.filter((u) => u !== uid).map((u) => ({ user: u })),
    teamEvent('team.member-leave', team, { user: uid }),
    { origin: removal.origin },
  );
}
