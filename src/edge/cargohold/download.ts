import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../api/app-env.js';
import { endpoint } from '../api/endpoint.js';
import { ApiError } from '../api/errors/api-error.js';
import { cargoholdErrors } from '../api/errors/cargohold.js';
import { FEDERATED_CALL_ERRORS } from '../api/errors/federation.js';
import { FederatorClient } from '../federation/client.js';
import { getAssetRpc } from './federation-api.js';
import { domain } from '../api/schemas/common.js';
import { self } from '../api/self.js';
import { database } from '../db/client.js';
import { localAsset } from './asset-access.js';
import { assetKeySchema } from './asset-key.js';
import { objectStore } from './object-store.js';
import { assetTokenSchema } from './tokens.js';

// An empty token is well-formed (wire's base64url of nothing): it opens no asset but the caller's own.
const givenToken = assetTokenSchema.or(z.literal(''));
export const tokenQuery = z.object({
  asset_token: givenToken.optional(),
  forceCaching: z.string().optional().openapi({ description: 'Accepted for old clients; no effect' }),
});
export const tokenHeader = z.object({ 'asset-token': givenToken.optional() });

/**
 * The token a download names: the header wins over the query parameter, as in wire; a bare
 * `?asset_token` without `=` names none, as Servant reads a parameter without a value.
 */
export function requestedToken(c: Context<AppEnv>): string | undefined {
  const header = c.req.header('asset-token');
  if (header !== undefined) return header;
  const given = new URL(c.req.url).search
    .slice(1)
    .split('&')
    .find((p) => p === 'asset_token' || p.startsWith('asset_token='));
  return given === undefined || given === 'asset_token' ? undefined : c.req.query('asset_token');
}

/**
 * The host a download URL is signed for: with `multiIngress`, the entry of the request's Z-Host
 * (none: not found, so the setup stays hidden); otherwise `downloadEndpoint`, else the store itself.
 */
function downloadEndpointFor(c: Context<AppEnv>): string {
  const { objstore } = c.get('config').cargohold;
  if (objstore.multiIngress === undefined) return objstore.downloadEndpoint ?? objstore.endpoint;
  const mapped = objstore.multiIngress[c.get('zHost')];
  if (mapped === undefined) throw new ApiError(cargoholdErrors.assetNotFound);
  return mapped;
}

/**
 * Another backend's asset: its cargohold checks the token (get-asset), then the bytes come through
 * federation (stream-asset) and are passed on as they arrive, not redirected.
 */
async function remoteDownload(c: Context<AppEnv>, domain: string, key: string, token: string | undefined) {
  if (token === '') throw new ApiError(cargoholdErrors.assetNotFound); // a remote user is never the owner
  const client = FederatorClient.of(c.get('config'));
  const asked = { user: self(c).user, key, ...(token === undefined ? {} : { token }) };
  const { available } = await client.call(domain, getAssetRpc, asked);
  if (!available) throw new ApiError(cargoholdErrors.assetNotFound);
  const bytes = await client.stream(domain, 'cargohold', 'stream-asset', asked);
  return new Response(bytes.body, { status: 200, headers: { 'content-type': 'application/octet-stream' } });
}

async function download(c: Context<AppEnv>, keyDomain: string, key: string) {
  const config = c.get('config');
  const token = requestedToken(c);
  if (keyDomain !== config.cargohold.settings.federationDomain) return remoteDownload(c, keyDomain, key, token);
  return localDownload(c, key, token, self(c).user);
}

/**
 * A redirect to this backend's asset for its owner, or for anyone giving the token stored with it
 * (none for a public asset); else an opaque 404.
 */
export async function localDownload(c: Context<AppEnv>, key: string, token: string | undefined, owner: string) {
  const config = c.get('config');
  const row = await localAsset(database(c.env.DB), key);
  if (row.owner !== owner && (token ?? null) !== row.token) throw new ApiError(cargoholdErrors.assetNotFound);
  const url = await objectStore(c.env, config.cargohold.objstore).presignGet(
    key,
    downloadEndpointFor(c),
    config.cargohold.settings.downloadLinkTTL,
  );
  return c.body(null, 302, { location: url });
}

const downloadRoute = {
  method: 'get',
  errors: [cargoholdErrors.assetNotFound, ...FEDERATED_CALL_ERRORS],
  responses: {
    200: {
      description: "Another backend's asset, streamed through federation",
      content: { 'application/octet-stream': { schema: z.string().openapi({ format: 'binary' }) } },
    },
    302: { description: 'Redirect to a presigned download URL, valid `downloadLinkTTL` seconds' },
  },
} as const;

const byQualifiedKey = {
  request: { params: z.object({ key_domain: domain, key: assetKeySchema }), query: tokenQuery, headers: tokenHeader },
  ...downloadRoute,
} as const;

export const downloadAsset = endpoint(
  { name: 'assets-download', path: '/assets/{key_domain}/{key}', from: 2, ...byQualifiedKey },
  (c) => download(c, c.req.valid('param').key_domain, c.req.valid('param').key),
);

export const downloadAssetV4 = endpoint(
  { name: 'assets-download-v4', path: '/assets/v4/{key_domain}/{key}', until: 2, ...byQualifiedKey },
  (c) => download(c, c.req.valid('param').key_domain, c.req.valid('param').key),
);

export const downloadAssetV3 = endpoint(
  {
    name: 'assets-download-v3',
    path: '/assets/v3/{key}',
    until: 2,
    request: { params: z.object({ key: assetKeySchema }), query: tokenQuery, headers: tokenHeader },
    ...downloadRoute,
  },
  (c) => download(c, c.get('config').cargohold.settings.federationDomain, c.req.valid('param').key),
);
