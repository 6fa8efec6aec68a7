import { join } from 'node:path';
import type { CargoholdConfig } from '../../src/shared/config/schemas/cargohold.js';
import type { BucketAccess } from './bucket.js';
import { startObjectStore } from './object-store.js';
import type { TlsFiles } from './tls-env.js';

export type RunningStore = BucketAccess & {
  local: boolean;
  /** Where a browser downloads from: a local store's TLS endpoint, when `npm start` runs over TLS. */
  downloadEndpoint?: string;
  stop(): Promise<void>;
};

/** The TLS port of a local store: the configured download endpoint's when it names one. */
const DEFAULT_TLS_PORT = 7443;

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * The object store of cargohold's configuration for `npm start`: a loopback endpoint gets a
 * radosgw of its own, on that port or, when another backend on this machine holds it, on a free
 * one (the returned endpoint says which), keeping its objects under `stateDir` across restarts,
 * as the database beside them; any other endpoint is used as it is, with the
 * credentials in AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY. With `tls`, a local store serves
 * https too, for browsers, on the port of an https `downloadEndpoint`, else 7443 (or a free one).
 */
export async function localObjectStore(
  objstore: CargoholdConfig['objstore'],
  stateDir: string,
  tls?: TlsFiles,
): Promise<RunningStore> {
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
  const store = await startObjectStore({
    stateDir: join(stateDir, 'object-store'),
    durable: true,
    port,
    anyPortIfTaken: true,
    ...(tls === undefined ? {} : { tls: { ...tls, port: tlsPortOf(objstore.downloadEndpoint) } }),
  });
  const downloads = store.tlsEndpoint?.replace('//127.0.0.1:', '//localhost:');
  return { ...store, region: objstore.region, local: true, ...(downloads ? { downloadEndpoint: downloads } : {}) };
}

function tlsPortOf(downloadEndpoint: string | undefined): number {
  const url = downloadEndpoint === undefined ? undefined : new URL(downloadEndpoint);
  return url?.protocol === 'https:' ? Number(url.port || 443) : DEFAULT_TLS_PORT;
}
