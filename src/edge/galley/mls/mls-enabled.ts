import type { Context } from 'hono';
import { removalKeys, type RemovalKeys } from '../../../shared/mls/removal-keys.js';
import type { AppEnv } from '../../api/app-env.js';
import { ApiError } from '../../api/errors/api-error.js';
import { mlsErrors } from '../../api/errors/mls.js';

/**
 * The removal keys, when brig's `setEnableMLS` is on; otherwise every MLS endpoint stops here with
 * 400 `mls-not-enabled`, before it reads or writes anything. (With MLS on, the runtime has already
 * refused a configuration without valid keys.)
 */
export function requireMls(c: Context<AppEnv>): RemovalKeys {
  const keys = keysOf(c);
  if (keys === undefined) throw new ApiError(mlsErrors.mlsNotEnabled);
  return keys;
}

/** Whether MLS is on (see requireMls), for routes that only do more with it. */
export const mlsEnabled = (c: Context<AppEnv>): boolean => keysOf(c) !== undefined;

function keysOf(c: Context<AppEnv>): RemovalKeys | undefined {
  const keys = c.get('config').brig.optSettings.setEnableMLS ? removalKeys(c.env.MLS_REMOVAL_KEYS) : undefined;
  return keys === undefined || typeof keys === 'string' ? undefined : keys;
}
