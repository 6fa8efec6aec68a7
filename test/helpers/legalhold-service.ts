import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { proteusKeys } from './prekeys.js';
import { rsaTlsIdentity } from './rsa-tls.js';

interface ServiceCall {
  method: string;
  /** The path below the service's base (`/status`, `/v1/initiate`, …). */
  path: string;
  authorization: string | undefined;
  body: any;
}

/**
 * An external legal hold service as wire specifies it, on loopback over TLS with a self-signed
 * RSA certificate (the team registers its key): `/status`, `/api-version`, and `initiate`,
 * `confirm`, `remove` in v0 and v1. It records every call and hands out real Proteus prekeys.
 */
export interface LegalholdService {
  /** The base URL a team registers (`https://127.0.0.1:<port>/legalhold`). */
  baseUrl: string;
  publicKeyPem: string;
  authToken: string;
  calls: ServiceCall[];
  /** What `/api-version` answers: the versions, or 404 when undefined (a v0-only service). */
  versions: number[] | undefined;
  /** While set, every call but `/status` and `/api-version` answers 500. */
  failing: boolean;
  /** The calls to this endpoint so far (by path below the base). */
  callsTo(path: string): ServiceCall[];
  /** What the service answered to `initiate` (its prekeys and last prekey), in order. */
  initiated: Array<{ prekeys: unknown[]; last_prekey: unknown }>;
  stop(): Promise<void>;
}

export async function startLegalholdService(): Promise<LegalholdService> {
  const identity = await rsaTlsIdentity();
  const service: Omit<LegalholdService, 'baseUrl' | 'stop'> = {
    publicKeyPem: identity.publicKeyPem,
    authToken: 'c2VjcmV0LXRva2Vu',
    calls: [],
    versions: [0, 1],
    failing: false,
    callsTo: (path) => service.calls.filter((c) => c.path === path),
    initiated: [],
  };
  const answer = async (path: string): Promise<[number, unknown]> => {
    if (path === '/status') return [200, {}];
    if (path === '/api-version')
      return service.versions === undefined ? [404, {}] : [200, { supported: service.versions }];
    if (service.failing) return [500, { error: 'failing on purpose' }];
    if (path === '/initiate' || path === '/v1/initiate') {
      const keys = await proteusKeys(3);
      const answer = { prekeys: keys.prekeys, last_prekey: keys.lastkey };
      service.initiated.push(answer);
      return [200, answer];
    }
    if (['/confirm', '/v1/confirm', '/remove', '/v1/remove'].includes(path)) return [200, {}];
    return [404, {}];
  };
  const server = https.createServer({ key: identity.key, cert: identity.cert }, (req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => {
      const path = (req.url ?? '').replace(/^\/legalhold/, '');
      service.calls.push({
        method: req.method ?? '',
        path,
        authorization: req.headers.authorization,
        body: text === '' ? undefined : JSON.parse(text),
      });
      void answer(path).then(([status, body]) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return Object.assign(service, {
    baseUrl: `https://127.0.0.1:${(server.address() as AddressInfo).port}/legalhold`,
    stop: () => new Promise<void>((r) => server.close(() => r())),
  });
}
