// cargohold's federation RPCs: users of other backends download this backend's assets through it.
import { z } from '@hono/zod-openapi';
import { endpoint } from '../api/endpoint.js';
import { ApiError } from '../api/errors/api-error.js';
import { cargoholdErrors } from '../api/errors/cargohold.js';
import { commonErrors } from '../api/errors/common.js';
import { jsonBody } from '../api/schemas/common.js';
import type { Config } from '../../shared/config/index.js';
import { database, type Db } from '../db/client.js';
import { callerOf, federationRpc } from '../federation/rpc.js';
import { localAsset } from './asset-access.js';
import { assetKeySchema } from './asset-key.js';
import { objectStore } from './object-store.js';
import { assetTokenSchema } from './tokens.js';
import { rpcContract } from '../federation/contract.js';

/** Which asset a remote user asks for, with the token the asset's sharer gave (none for a public asset). */
export const getAssetRpc = rpcContract({
  component: 'cargohold',
  rpc: 'get-asset',
  request: z.object({ user: z.uuid(), key: assetKeySchema, token: assetTokenSchema.nullish() }),
  response: z.object({ available: z.boolean() }),
});
type GetAsset = z.infer<typeof getAssetRpc.request>;

/** A remote user is never the owner: the token must be the stored one. */
async function readable(db: Db, req: GetAsset): Promise<boolean> {
  try {
    return ((await localAsset(db, req.key)).token ?? null) === (req.token ?? null);
  } catch (err) {
    if (err instanceof ApiError) return false;
    throw err;
  }
}

export const getAsset = federationRpc(
  { ...getAssetRpc, description: 'Whether the asset exists and the token opens it' },
  async (c, req) => ({ available: await readable(database(c.env.DB), req) }),
);

/** The bytes from the store, as the worker reads them (the store's own endpoint, not the download one). */
async function storedBytes(env: Env, config: Config, key: string): Promise<Response> {
  const { objstore } = config.cargohold;
  const url = await objectStore(env, objstore).presignGet(key, objstore.endpoint, 60);
  const res = await fetch(url);
  if (!res.ok) throw new ApiError(cargoholdErrors.assetNotFound);
  return res;
}

export const streamAsset = endpoint(
  {
    name: 'federation-cargohold-stream-asset',
    auth: 'none',
    method: 'post',
    path: '/federation/cargohold/stream-asset',
    request: jsonBody(getAssetRpc.request),
    errors: [commonErrors.badRequest, cargoholdErrors.assetNotFound],
    responses: {
      200: {
        description: 'The asset, streamed',
        content: { 'application/octet-stream': { schema: z.string().openapi({ format: 'binary' }) } },
      },
    },
  },
  async (c) => {
    const req = c.req.valid('json');
    callerOf(c); // called by the federator for a remote backend, like every federation RPC
    if (!(await readable(database(c.env.DB), req))) throw new ApiError(cargoholdErrors.assetNotFound);
    const stored = await storedBytes(c.env, c.get('config'), req.key);
    return new Response(stored.body, { status: 200, headers: { 'content-type': 'application/octet-stream' } });
  },
);
