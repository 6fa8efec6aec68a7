import type { Deps } from '../../api/deps.js';
import type { AccessClaims } from '../../auth/tokens.js';
import { commitChange } from '../../effects/commit-change.js';
import { memberLeaveAudience, memberLeaveEffect } from './member-changes.js';
import { teamStore } from './team-store.js';

/**
 * Removes a member of a binding team, deleting their account. The team hears
 * `team.member-leave` (only owners and admins with limitedEventFanout on), and its admins get
 * `member-leave` for each conversation the member was in.
 */
export async function removeMemberAccount(
  d: Deps,
  removal: { team: string; user: string; origin?: AccessClaims | undefined },
): Promise<void> {
  const { team, user: uid } = removal;
  const { admins, told } = await memberLeaveAudience(d.db, d.config, team);
  const left = memberLeaveEffect({ team, user: uid, told, origin: removal.origin });
  if ((await d.users.account({ id: uid, domain: d.domain })) !== undefined)
    await d.users.deleteAccount(uid, { teamAdmins: admins, also: [left] });
  else await commitChange(d.env, d.config, { statements: [teamStore.removeMember(d.db, uid)], effects: [left] });
}
