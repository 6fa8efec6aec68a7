// spar's side of `SsoAccess`: what other components ask of single sign-on.
import type { SsoAccess } from '../api/access/sso-access.js';
import type { Db } from '../db/client.js';
import { idpStore } from './idp/idp-store.js';

/** spar's answers for one request's database. */
export function ssoAccess(db: Db): SsoAccess {
  return { teamIdpIds: async (team) => (await idpStore.ofTeam(db, team)).map((idp) => idp.id) };
}
