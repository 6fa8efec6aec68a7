/** spar's face: what other components may ask of single sign-on. */
import type { Db } from '../db/client.js';
import { idpStore } from './idp/idp-store.js';

/** The ids of a team's identity providers. */
export async function teamIdpIds(db: Db, team: string): Promise<string[]> {
  return (await idpStore.ofTeam(db, team)).map((idp) => idp.id);
}
