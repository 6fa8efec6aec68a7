import type { Config } from '../../../shared/config/index.js';
import type { AccessClaims } from '../../auth/tokens.js';
import { deleteAccount, userById } from '../../brig/face.js';
import type { Db } from '../../db/client.js';
import { commitChange } from '../../effects/commit-change.js';
import { memberLeaveAudience, memberLeaveEffect } from './member-changes.js';
import { teamStore } from './team-store.js';

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
  const { admins, told } = await memberLeaveAudience(db, config, team);
  const user = await userById(db, { id: uid, domain: config.brig.optSettings.setFederationDomain });
  const left = memberLeaveEffect({ team, user: uid, told, origin: removal.origin });
  if (user !== undefined) await deleteAccount(env, db, config, user, undefined, admins, [left]);
  else await commitChange(env, config, { statements: [teamStore.removeMember(db, uid)], effects: [left] });
}
