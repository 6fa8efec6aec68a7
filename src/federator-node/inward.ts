import http2 from 'node:http2';
import tls, { type TLSSocket } from 'node:tls';
import { federatorError, sendError, type FederatorError } from './errors.js';
import type { MetricsRegistry } from '../shared/metrics/registry.js';
import { inwardCall, isDomain } from './paths.js';
import type { Remotes } from './remotes.js';
import type { WorkerCall } from './shared-token.js';
import { readBody } from './request-body.js';
import type { TlsMaterial } from './tls-material.js';
import { serveStatus, timeRequest } from './status.js';

/** Headers a remote's call carries on to the local worker. */
const FORWARDED = ['content-type', 'wire-origin-domain', 'x-svc-api-version', 'wire-origin-request-id'];

const refused = (label: string, message: string) => federatorError(403, label, message);

/** Who is calling: the origin domain, proven by the client certificate; or why the call is refused. */
function authenticate(req: http2.Http2ServerRequest): string | FederatorError {
  const socket = req.stream.session?.socket as TLSSocket | undefined;
  const peer = socket?.getPeerCertificate();
  if (socket === undefined || peer === undefined || Object.keys(peer).length === 0)
    return refused('no-client-certificate', 'no client certificate provided');
  if (!socket.authorized)
    return refused('authentication-failure', `client certificate not trusted: ${socket.authorizationError}`);
  const origin = req.headers['wire-origin-domain'];
  if (typeof origin !== 'string' || !isDomain(origin))
    return refused('domain-parse-error', `domain parse failure for [${String(origin ?? '')}]`);
  const mismatch = tls.checkServerIdentity(origin, peer);
  if (mismatch !== undefined)
    return refused('authentication-failure', `none of the domain names match the certificate: ${mismatch.message}`);
  return origin;
}

/**
 * The face remote backends call: HTTP/2 with mutual TLS, `POST /federation/{component}/{rpc}`.
 * The client certificate must be trusted and name the `Wire-Origin-Domain`; the domain must be one
 * this backend federates with; then the call goes to the local worker's federation API.
 */
export function inwardServer(o: {
  material: TlsMaterial;
  worker: WorkerCall;
  remotes: Remotes;
  metrics: MetricsRegistry;
}): http2.Http2SecureServer {
  if (o.material.certificate === undefined || o.material.privateKey === undefined)
    throw new Error('the federator serves remotes with clientCertificate and clientPrivateKey: both are required');
  const server = http2.createSecureServer({
    cert: o.material.certificate,
    key: o.material.privateKey,
    ca: o.material.ca,
    requestCert: true,
    rejectUnauthorized: false, // answered per request, in Wire's error format
  });
  server.on('request', (req, res) => {
    void handle(req, res, o).catch((err: unknown) => {
      sendError(res, federatorError(500, 'internal-error', (err as Error).message));
    });
  });
  return server;
}

async function handle(
  req: http2.Http2ServerRequest,
  res: http2.Http2ServerResponse,
  o: { worker: WorkerCall; remotes: Remotes; metrics: MetricsRegistry },
): Promise<void> {
  if (serveStatus(req, res)) return;
  const call = inwardCall(req.url);
  timeRequest(req, res, o.metrics, call === undefined ? 'N/A' : '/federation/:component/:rpc');
  if (call === undefined) return sendError(res, federatorError(404, 'no-endpoint', 'no such federation endpoint'));
  if (req.method !== 'POST') return sendError(res, federatorError(405, 'method-not-allowed', 'only POST is supported'));
  const reply = (status: number) =>
    o.metrics.count('svc_federator_inward_requests_total', { ...call, status: `${status}` });
  const origin = authenticate(req);
  if (typeof origin !== 'string') {
    reply(origin.status);
    return sendError(res, origin);
  }
  if (!(await o.remotes.allows(origin))) {
    reply(400);
    return sendError(
      res,
      federatorError(400, 'federation-denied', `origin domain [${origin}] not in the federation allow list`),
    );
  }
  const headers: Record<string, string> = {};
  for (const h of FORWARDED) if (typeof req.headers[h] === 'string') headers[h] = req.headers[h];
  const body = await readBody(req);
  const local = await o.worker(`/federation/${call.component}/${call.rpc}`, {
    method: 'POST',
    headers,
    body: new Uint8Array(body),
  });
  reply(local.status);
  res.writeHead(local.status, { 'content-type': local.headers.get('content-type') ?? 'application/json' });
  res.end(Buffer.from(await local.arrayBuffer()));
}
