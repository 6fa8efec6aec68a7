import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { ApiError } from '../../api/errors/api-error.js';
import { mlsErrors } from '../../api/errors/mls.js';

/** brig's MLS endpoints stop here, before anything is read or written, unless `setEnableMLS` is on. */
export function requireMlsEnabled(c: Context<AppEnv>): void {
  if (!c.get('config').brig.optSettings.setEnableMLS) throw new ApiError(mlsErrors.mlsNotEnabled);
}
