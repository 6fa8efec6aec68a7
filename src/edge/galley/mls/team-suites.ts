import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { ApiError } from '../../api/errors/api-error.js';
import { mlsErrors } from '../../api/errors/mls.js';
import type { Db } from '../../db/client.js';
import { teamFeature } from '../features/team-features.js';

/**
 * The first commit of a team conversation sets the group's cipher suite: with the team's mls
 * feature on, it must be one of the feature's `allowedCipherSuites` (400 `mls-protocol-error`).
 */
export async function requireAllowedSuite(c: Context<AppEnv>, db: Db, team: string, suite: number): Promise<void> {
  const mls = await teamFeature(db, c.get('config'), team, 'mls');
  const allowed = (mls.config as { allowedCipherSuites?: number[] } | undefined)?.allowedCipherSuites;
  if (mls.status === 'enabled' && allowed !== undefined && !allowed.includes(suite))
    throw new ApiError(
      mlsErrors.mlsProtocolError,
      `Cipher suite 0x${suite.toString(16).padStart(4, '0')} is not allowed in this team`,
    );
}
