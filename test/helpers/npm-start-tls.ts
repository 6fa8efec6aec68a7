import { join } from 'node:path';
import { npmStart, type NpmStart } from '../../tools/lib/npm-start.js';
import { freeFixedPort } from '../../tools/lib/ports.js';
import { webCertificate, type WebCertificate } from './web-certificate.js';

export interface TlsStart {
  run: NpmStart;
  cert: WebCertificate;
  /** The public listener (https, wss). */
  port: number;
  /** `/i/...`, plain http. */
  internalPort: number;
}

/**
 * `npm start` over TLS on free ports with fresh state below `root`, as a person runs it for a
 * browser: with a certificate for these host names made now. Not yet ready: await `run.ready`.
 */
export async function npmStartOverTls(root: string, names: readonly string[]): Promise<TlsStart> {
  const cert = await webCertificate(root, names);
  // Bound by workerd seconds later: ports no other backend's listen(0) can take meanwhile.
  const [port, internalPort] = [await freeFixedPort(), await freeFixedPort()];
  const run = npmStart({
    PORT: String(port),
    INTERNAL_PORT: String(internalPort),
    STATE_DIR: join(root, 'state'),
    TLS_CERT: cert.certPath,
    TLS_KEY: cert.keyPath,
  });
  return { run, cert, port, internalPort };
}
