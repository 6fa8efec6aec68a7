import type { Config } from '../../shared/config/index.js';
import { ApiError } from '../api/errors/api-error.js';
import { cargoholdErrors } from '../api/errors/cargohold.js';
import type { Account } from '../api/access/user-access.js';
import type { Db } from '../db/client.js';
import { featureEnabled } from '../galley/face.js';

/**
 * How many bytes this user may upload in one asset: team members `maxTotalBytes`, personal and
 * ephemeral users the stricter `maxTotalBytesPersonal`. Users whose email is not verified, and
 * accounts in any other state, may not upload; nor may anyone where `fileSharing` is disabled.
 */
export async function uploadAllowance(db: Db, config: Config, user: Account | undefined): Promise<number> {
  if (user === undefined) throw new ApiError(cargoholdErrors.userNotFound);
  const verified = (user.status === 'active' && (user.activated || user.team !== null)) || user.status === 'ephemeral';
  if (!verified) throw new ApiError(cargoholdErrors.unverifiedUser);
  if (!(await featureEnabled(db, config, user.team, 'fileSharing')))
    throw new ApiError(cargoholdErrors.fileSharingDisabled);
  const { maxTotalBytes, maxTotalBytesPersonal } = config.cargohold.settings;
  return user.team !== null ? maxTotalBytes : maxTotalBytesPersonal;
}
