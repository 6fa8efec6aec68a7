import type { Config } from '../../../shared/config/index.js';
import { ApiError } from '../../api/errors/api-error.js';
import { brigErrors } from '../../api/errors/brig.js';

const limiter = (env: Env, user: string) => env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(`failed-logins:${user}`));

/** `setLimitFailedLogins`: 403 with `Retry-After` while the user's failure budget is spent. */
export async function refuseIfLoginBlocked(env: Env, config: Config, user: string): Promise<void> {
  const limit = config.brig.optSettings.setLimitFailedLogins;
  if (limit === undefined) return;
  const wait = await limiter(env, user).blockedFor(limit.retryLimit);
  if (wait > 0) throw new ApiError(brigErrors.tooManyFailedLogins, undefined, { 'retry-after': String(wait) });
}

export async function recordFailedLogin(env: Env, config: Config, user: string): Promise<void> {
  const limit = config.brig.optSettings.setLimitFailedLogins;
  if (limit !== undefined) await limiter(env, user).fail(limit.timeout);
}
