import http from 'node:http';
import type { Discovery } from './discovery.js';
import { federatorError, sendError, type FederatorError } from './errors.js';
import type { Metrics } from './metrics.js';
import { outwardCall } from './paths.js';
import type { RemoteClient } from './remote-client.js';
import { readBody } from './request-body.js';
import { serveStatus } from './status.js';

/** Headers of the worker's call carried on to the remote. */
const FORWARDED = ['x-svc-api-version', 'wire-origin-request-id'];

const isFederatorError = (e: unknown): e is FederatorError =>
  typeof e === 'object' && e !== null && 'label' in e && 'status' in e;

/**
 * The face the local worker calls: `POST /rpc/{domain}/{component}/{rpc}`, answered with the
 * remote's own response, or with the federator's error when the remote cannot be found (422
 * `invalid-domain`, 400 `discovery-failure`) or reached (521, 525).
 */
export function outwardServer(o: {
  ownDomain: string;
  discovery: Discovery;
  client: RemoteClient;
  metrics: Metrics;
}): http.Server {
  return http.createServer((req, res) => {
    void handle(req, res, o).catch((err: unknown) => {
      sendError(res, isFederatorError(err) ? err : federatorError(500, 'internal-error', (err as Error).message));
    });
  });
}

async function handle(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  o: { ownDomain: string; discovery: Discovery; client: RemoteClient; metrics: Metrics },
): Promise<void> {
  if (serveStatus(req, res, o.metrics)) return;
  const call = outwardCall(req.url ?? '');
  if (call === undefined) return sendError(res, federatorError(404, 'no-endpoint', 'no such federation endpoint'));
  if (req.method !== 'POST') return sendError(res, federatorError(405, 'method-not-allowed', 'only POST is supported'));
  const body = await readBody(req);
  const found = await o.discovery.find(call.domain);
  const count = (status: number) =>
    o.metrics.count('svc_federator_outward_requests_total', {
      domain: call.domain,
      component: call.component,
      rpc: call.rpc,
      status: `${status}`,
    });
  if (!found.ok) {
    const e =
      found.reason === 'no-record'
        ? federatorError(422, 'invalid-domain', found.detail)
        : federatorError(400, 'discovery-failure', found.detail);
    count(e.status);
    return sendError(res, e);
  }
  const headers: Record<string, string> = { 'content-type': 'application/json', 'wire-origin-domain': o.ownDomain };
  for (const h of FORWARDED) if (typeof req.headers[h] === 'string') headers[h] = req.headers[h];
  try {
    const reply = await o.client.post(
      call.domain,
      found.target,
      `/federation/${call.component}/${call.rpc}`,
      headers,
      body,
    );
    count(reply.status);
    res.writeHead(reply.status, { 'content-type': reply.contentType ?? 'application/json' });
    res.end(reply.body);
  } catch (err) {
    if (isFederatorError(err)) count(err.status);
    throw err;
  }
}
