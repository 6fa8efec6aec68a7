import type { Config } from '../../../shared/config/index.js';
import { ApiError } from '../../api/errors/api-error.js';
import { legalholdErrors } from '../../api/errors/legalhold.js';
import type { Db } from '../../db/client.js';
import { legalholdStore, type LegalholdStatus } from './legalhold-store.js';

/** Whether a user with this status (none: not a team member) consented to legal hold. */
export const consented = (s: LegalholdStatus | undefined) => s === 'disabled' || s === 'pending' || s === 'enabled';

/**
 * wire's rule when users join a conversation (this backend's users): where someone is under legal
 * hold, only users who consented to it may join; a user under legal hold joins only where everyone
 * consented. Guests and personal users have no consent. 403 `missing-legalhold-consent`.
 */
export async function guardLegalholdOnJoin(
  db: Db,
  config: Config,
  o: { present: readonly string[]; joining: readonly string[] },
): Promise<void> {
  if (config.galley.settings.featureFlags.legalhold === 'disabled-permanently' || o.joining.length === 0) return;
  const statuses = await legalholdStore.statuses(db, [...o.present, ...o.joining]);
  const under = (u: string) => statuses.get(u) === 'enabled';
  const without = (u: string) => !consented(statuses.get(u));
  const conflict =
    (o.present.some(under) && o.joining.some(without)) ||
    (o.joining.some(under) && [...o.present, ...o.joining].some(without));
  if (conflict) throw new ApiError(legalholdErrors.missingConsent);
}

/**
 * Legal hold records Proteus only: users under it (or about to be) take no part in MLS groups.
 * 409 `mls-legal-hold-not-allowed` when one of these (local) users is pending or enabled.
 */
export async function refuseLegalholdInMls(db: Db, users: readonly string[]): Promise<void> {
  if (users.length === 0) return;
  const statuses = await legalholdStore.statuses(db, users);
  if (users.some((u) => statuses.get(u) === 'pending' || statuses.get(u) === 'enabled'))
    throw new ApiError(legalholdErrors.mlsNotAllowed);
}
