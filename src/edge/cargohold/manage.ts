import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../api/app-env.js';
import { endpoint } from '../api/endpoint.js';
import { ApiError } from '../api/errors/api-error.js';
import { cargoholdErrors } from '../api/errors/cargohold.js';
import { domain, json } from '../api/schemas/common.js';
import { self } from '../api/self.js';
import { database } from '../db/client.js';
import { ownAsset } from './asset-access.js';
import { assetKeySchema } from './asset-key.js';
import { assetStore } from './asset-store.js';
import { type AssetObjectMetadata, objectStore } from './object-store.js';
import { assetTokenSchema, newAssetToken } from './tokens.js';
import { log } from '../../shared/log.js';

export const ownerErrors = [cargoholdErrors.assetNotFound, cargoholdErrors.unauthorised];

/** The owner deletes an asset of this backend. */
async function deleteAsset(c: Context<AppEnv>, keyDomain: string, key: string) {
  const config = c.get('config');
  if (keyDomain !== config.cargohold.settings.federationDomain)
    throw new ApiError(cargoholdErrors.federationNotImplemented);
  return removeOwnAsset(c, key, self(c).user);
}

/** Deletes the owner's asset: its bytes first, so a failure leaves the asset as it was. */
export async function removeOwnAsset(c: Context<AppEnv>, key: string, owner: string) {
  const db = database(c.env.DB);
  await ownAsset(db, key, owner);
  await objectStore(c.env, c.get('config').cargohold.objstore).delete(key);
  await assetStore.remove(db, key);
  return c.body(null, 200);
}

const deleteRoute = {
  method: 'delete',
  errors: [...ownerErrors, cargoholdErrors.federationNotImplemented],
  responses: { 200: { description: 'Asset deleted' } },
} as const;

const qualifiedParams = z.object({ key_domain: domain, key: assetKeySchema });
const keyParams = z.object({ key: assetKeySchema });

export const deleteAssetRoute = endpoint(
  {
    name: 'assets-delete',
    path: '/assets/{key_domain}/{key}',
    from: 2,
    request: { params: qualifiedParams },
    ...deleteRoute,
  },
  (c) => deleteAsset(c, c.req.valid('param').key_domain, c.req.valid('param').key),
);

export const deleteAssetV4 = endpoint(
  {
    name: 'assets-delete-v4',
    path: '/assets/v4/{key_domain}/{key}',
    until: 2,
    request: { params: qualifiedParams },
    ...deleteRoute,
  },
  (c) => deleteAsset(c, c.req.valid('param').key_domain, c.req.valid('param').key),
);

export const deleteAssetV3 = endpoint(
  { name: 'assets-delete-v3', path: '/assets/v3/{key}', until: 2, request: { params: keyParams }, ...deleteRoute },
  (c) => deleteAsset(c, c.get('config').cargohold.settings.federationDomain, c.req.valid('param').key),
);

/**
 * The object's metadata follows its token, as wire's cargohold keeps it. The asset row decides who
 * may download, so a failure here is logged and the answer stands.
 */
async function tellObject(c: Context<AppEnv>, key: string, metadata: AssetObjectMetadata) {
  await objectStore(c.env, c.get('config').cargohold.objstore)
    .setMetadata(key, metadata)
    .catch((err) => log('warn', 'asset object metadata not updated', { key, error: String(err) }));
}

/** A new token replaces the old one (which stops working); a public asset becomes private. */
async function renewToken(c: Context<AppEnv>, key: string) {
  const db = database(c.env.DB);
  const me = self(c).user;
  await ownAsset(db, key, me);
  const token = newAssetToken();
  if (!(await assetStore.setToken(db, key, me, token))) throw new ApiError(cargoholdErrors.assetNotFound);
  await tellObject(c, key, { user: me, token });
  return c.json({ token }, 200);
}

/** Without a token the asset is public: any authenticated user may download it. */
async function deleteToken(c: Context<AppEnv>, key: string) {
  const db = database(c.env.DB);
  const me = self(c).user;
  await ownAsset(db, key, me);
  if (!(await assetStore.setToken(db, key, me, null))) throw new ApiError(cargoholdErrors.assetNotFound);
  await tellObject(c, key, { user: me });
  return c.body(null, 200);
}

const renewRoute = {
  method: 'post',
  request: { params: keyParams },
  errors: ownerErrors,
  responses: {
    200: { description: 'The new token', ...json(z.object({ token: assetTokenSchema }).openapi('NewAssetToken')) },
  },
} as const;

const deleteTokenRoute = {
  method: 'delete',
  request: { params: keyParams },
  errors: ownerErrors,
  responses: { 200: { description: 'Token deleted: the asset is public' } },
} as const;

export const renewAssetToken = endpoint(
  { name: 'tokens-renew', path: '/assets/{key}/token', from: 2, ...renewRoute },
  (c) => renewToken(c, c.req.valid('param').key),
);
export const renewAssetTokenV3 = endpoint(
  { name: 'tokens-renew-v3', path: '/assets/v3/{key}/token', until: 2, ...renewRoute },
  (c) => renewToken(c, c.req.valid('param').key),
);
export const deleteAssetToken = endpoint(
  { name: 'tokens-delete', path: '/assets/{key}/token', from: 2, ...deleteTokenRoute },
  (c) => deleteToken(c, c.req.valid('param').key),
);
export const deleteAssetTokenV3 = endpoint(
  { name: 'tokens-delete-v3', path: '/assets/v3/{key}/token', until: 2, ...deleteTokenRoute },
  (c) => deleteToken(c, c.req.valid('param').key),
);
