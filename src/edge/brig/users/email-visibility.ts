import type { Config } from '../../../shared/config/index.js';
import type { TeamRole } from '../../../shared/db/schema.js';
import { hasHiddenPerm } from '../../api/team-permissions.js';

export type EmailVisibility = Config['brig']['optSettings']['setEmailVisibility'];

/** Who looks at a profile, as far as emails go: their team and role, when they are in a team. */
export interface Viewer {
  team: string;
  role: TeamRole;
}

/**
 * Whether a user profile shows its owner's email (brig's `setEmailVisibility`):
 * - `visible_if_on_team`: to everyone, when the owner is in a team;
 * - `visible_if_on_same_team`: to members of the owner's team, external partners excepted;
 * - `visible_to_self`: to nobody (the owner reads it at `GET /self`), except the team's owners and
 *   admins, who see their team's emails as under `visible_if_on_same_team`.
 */
export function emailVisibleTo(
  setting: EmailVisibility,
  viewer: Viewer | undefined,
  owner: { team: string | null },
): boolean {
  if (setting === 'visible_if_on_team') return owner.team !== null;
  if (viewer === undefined || viewer.team !== owner.team || !hasHiddenPerm(viewer.role, 'ViewSameTeamEmails'))
    return false;
  return setting === 'visible_if_on_same_team' || viewer.role === 'owner' || viewer.role === 'admin';
}
