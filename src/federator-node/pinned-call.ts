// Calls to integrations (legal hold services, bots) over TLS pinned to the key the team
// registered, as wire pins them: no certificate authority vouches for these peers, their key
// fingerprint does. The worker cannot see a peer's key (fetch hides the handshake), so it asks here.
import http from 'node:http';
import { isIP } from 'node:net';
import tls from 'node:tls';
import { rsaFingerprint, rsaKeyOfSpki } from '../shared/integrations/fingerprint.js';
import { federatorError, type FederatorError } from './errors.js';

export interface PinnedRequest {
  url: URL;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body: string | undefined;
  /** The registered keys' fingerprints (base64), one of which the peer's certificate must carry. */
  fingerprint: string | string[];
}

export interface PinnedReply {
  status: number;
  body: string;
}

const TIMEOUT_MS = 10_000;
/** Connection failures are tried again, this often, waiting 100 ms, then 200, then 400. */
const RETRIES = 3;
const CONNECTION_ERRORS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE']);

const unreachable = (why: string): FederatorError => federatorError(502, 'integration-unreachable', why);

/** Whether the peer's certificate is in its validity period and carries the pinned key. */
async function pinHolds(socket: tls.TLSSocket, fingerprint: string | string[]): Promise<string | undefined> {
  const cert = socket.getPeerCertificate();
  const now = Date.now();
  if (!cert.raw || Date.parse(cert.valid_from) > now || Date.parse(cert.valid_to) < now)
    return 'the certificate is not valid now';
  const key = cert.pubkey === undefined ? undefined : await rsaKeyOfSpki(new Uint8Array(cert.pubkey));
  if (key === undefined) return 'the certificate carries no RSA key';
  const pinned = [fingerprint].flat().includes(await rsaFingerprint(key));
  return pinned ? undefined : 'the certificate key is not the registered one';
}

function connectPinned(url: URL, fingerprint: string | string[]): Promise<tls.TLSSocket> {
  return new Promise((resolve, reject) => {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const socket = tls.connect({
      host,
      port: Number(url.port || 443),
      ...(isIP(host) === 0 ? { servername: host } : {}),
      // The pin replaces the authority: any certificate, if its key is the registered one.
      rejectUnauthorized: false,
      minVersion: 'TLSv1.2',
      timeout: TIMEOUT_MS,
    });
    socket.once('timeout', () => socket.destroy(Object.assign(new Error('connect timeout'), { code: 'ETIMEDOUT' })));
    socket.once('error', reject);
    socket.once('secureConnect', () => {
      void pinHolds(socket, fingerprint).then((problem) => {
        if (problem === undefined) return resolve(socket);
        socket.destroy();
        reject(Object.assign(new Error(problem), { code: 'PIN_MISMATCH' }));
      }, reject);
    });
  });
}

function exchange(socket: tls.TLSSocket, r: PinnedRequest): Promise<PinnedReply> {
  return new Promise((resolve, reject) => {
    const req = http.request({
      createConnection: () => socket,
      method: r.method,
      path: `${r.url.pathname}${r.url.search}`,
      headers: { ...r.headers, host: r.url.host, connection: 'close' },
      timeout: TIMEOUT_MS,
    });
    req.once('timeout', () => req.destroy(Object.assign(new Error('response timeout'), { code: 'ETIMEDOUT' })));
    req.once('error', reject);
    req.once('response', (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.once('error', reject);
      res.once('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString('utf8') }));
    });
    req.end(r.body);
  });
}

/** Makes the call; a peer that cannot be reached or whose key is not the pinned one is 502. */
export async function pinnedCall(r: PinnedRequest): Promise<PinnedReply> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await exchange(await connectPinned(r.url, r.fingerprint), r);
    } catch (err) {
      const e = err as Error & { code?: string };
      if (attempt >= RETRIES || !CONNECTION_ERRORS.has(e.code ?? '')) throw unreachable(e.message);
      await new Promise((done) => setTimeout(done, 100 * 2 ** attempt));
    }
  }
}
