import type { Config } from '../../../shared/config/index.js';
import type { Db } from '../../db/client.js';
import { teamFeature } from './team-features.js';

/** What the second-factor rule needs to know about a user. */
export interface SndFactorSubject {
  team: string | null;
  ssoId: unknown;
}

/**
 * Whether the team feature `sndFactorPasswordChallenge` applies to this user: the one place that
 * decides when login, adding a client and SCIM tokens need a verification code. Personal users
 * and SSO users never do.
 */
export async function sndFactorRequired(db: Db, config: Config, user: SndFactorSubject): Promise<boolean> {
  if (user.team === null || (user.ssoId !== null && user.ssoId !== undefined)) return false;
  return (await teamFeature(db, config, user.team, 'sndFactorPasswordChallenge')).status === 'enabled';
}
