import type { Config } from '../../../shared/config/index.js';
import { ApiError } from '../../api/errors/api-error.js';
import { providerErrors } from '../../api/errors/provider.js';
import type { Db } from '../../db/client.js';
import { sndFactorRequired } from '../../galley/face.js';
import type { Account } from '../../api/access/user-access.js';

/** wire's guardSecondFactorDisabled: bots stay out of teams whose logins need a second factor. */
export async function refuseWithSecondFactor(db: Db, config: Config, user: Account): Promise<void> {
  if (await sndFactorRequired(db, config, user)) throw new ApiError(providerErrors.accessDenied);
}
