import type { Config } from '../../../shared/config/index.js';
import type { AccessClaims } from '../../auth/tokens.js';
import { deleteAccount, userById } from '../../brig/face.js';
import type { Db } from '../../db/client.js';
import { announceMemberLeave, memberLeaveAudience } from './member-changes.js';
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
  if (user !== undefined) await deleteAccount(env, db, config, user, undefined, admins);
  else await teamStore.removeMember(db, uid).run();
  await announceMemberLeave(env, config, { team, user: uid, told, origin: removal.origin });
}
