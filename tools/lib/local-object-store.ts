import { join } from 'node:path';
import type { CargoholdConfig } from '../../src/shared/config/schemas/cargohold.js';
import type { BucketAccess } from './bucket.js';
import { startObjectStore } from './object-store.js';

export type RunningStore = BucketAccess & { local: boolean; stop(): Promise<void> };

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * The object store of cargohold's configuration for `npm start`: a loopback endpoint gets a
 * radosgw of its own, on that port or, when another backend on this machine holds it, on a free
 * one (the returned endpoint says which); any other endpoint is used as it is, with the
 * credentials in AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY.
 */
export async function localObjectStore(objstore: CargoholdConfig['objstore'], stateDir: string): Promise<RunningStore> {
  const url = new URL(objstore.endpoint);
  if (!LOOPBACK.has(url.hostname)) {
    const { AWS_ACCESS_KEY_ID: accessKeyId, AWS_SECRET_ACCESS_KEY: secretAccessKey } = process.env;
    if (!accessKeyId || !secretAccessKey)
      throw new Error(`${objstore.endpoint} is not local: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY for it`);
    return {
      endpoint: objstore.endpoint,
      region: objstore.region,
      accessKeyId,
      secretAccessKey,
      local: false,
      stop: async () => {},
    };
  }
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const store = await startObjectStore({ stateDir: join(stateDir, 'object-store'), port, anyPortIfTaken: true });
  return { ...store, region: objstore.region, local: true };
}
