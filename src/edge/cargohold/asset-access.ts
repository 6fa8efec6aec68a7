import { ApiError } from '../api/errors/api-error.js';
import { cargoholdErrors } from '../api/errors/cargohold.js';
import type { Db } from '../db/client.js';
import { assetStore, type AssetRow } from './asset-store.js';

/** A stored, unexpired asset of this backend; not found otherwise (an expired one may await the sweep). */
export async function localAsset(db: Db, key: string): Promise<AssetRow> {
  const row = await assetStore.get(db, key);
  if (row === undefined || (row.expiresAt !== null && row.expiresAt <= Date.now()))
    throw new ApiError(cargoholdErrors.assetNotFound);
  return row;
}

/** An asset the caller owns: not found if missing, unauthorised if someone else's. */
export async function ownAsset(db: Db, key: string, user: string): Promise<AssetRow> {
  const row = await localAsset(db, key);
  if (row.owner !== user) throw new ApiError(cargoholdErrors.unauthorised);
  return row;
}
