import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

export interface TlsFiles {
  certPath: string;
  keyPath: string;
}

/**
 * `npm start` over TLS: `TLS_CERT` and `TLS_KEY` name a PEM certificate (chain) and its key, both
 * or neither. The public listener then serves https and wss, and a local object store https too.
 */
export function tlsFromEnv(env: NodeJS.ProcessEnv = process.env): TlsFiles | undefined {
  const { TLS_CERT: cert, TLS_KEY: key } = env;
  if (!cert && !key) return undefined;
  if (!cert || !key) throw new Error('TLS_CERT and TLS_KEY go together: set both, or neither');
  for (const file of [cert, key]) if (!existsSync(file)) throw new Error(`${file} does not exist`);
  return { certPath: resolve(cert), keyPath: resolve(key) };
}
