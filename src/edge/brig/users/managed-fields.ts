// Which of a user's fields are not theirs to change: what SCIM manages, and in teams with MLS
// end-to-end identity their name and handle, which their certificates carry (wire reports these
// users as managed by SCIM).
import type { Config } from '../../../shared/config/index.js';
import { ApiError } from '../../api/errors/api-error.js';
import { brigErrors } from '../../api/errors/brig.js';
import type { Db } from '../../db/client.js';
import { featureEnabled } from '../../galley/face.js';
import type { UserRow } from './user-json.js';

async function e2eIdentity(db: Db, config: Config, user: UserRow): Promise<boolean> {
  return user.team !== null && (await featureEnabled(db, config, user.team, 'mlsE2EId'));
}

/** `managed_by` as `GET /self` reports it. */
export async function managedByView(db: Db, config: Config, user: UserRow): Promise<'wire' | 'scim'> {
  if (user.managedBy === 'scim') return 'scim';
  return user.handle !== null && (await e2eIdentity(db, config, user)) ? 'scim' : 'wire';
}

/** 403 `managed-by-scim` for a change of a locked field (setting it to its value is no change). */
export async function guardManagedField(
  db: Db,
  config: Config,
  user: UserRow,
  field: 'name' | 'handle' | 'locale',
): Promise<void> {
  if (user.managedBy === 'scim') throw new ApiError(brigErrors.managedByScim);
  if (field === 'locale' || (field === 'handle' && user.handle === null)) return;
  if (await e2eIdentity(db, config, user)) throw new ApiError(brigErrors.managedByScim);
}
