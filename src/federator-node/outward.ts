import http from 'node:http';
import type { Discovery } from './discovery.js';
import { federatorError, sendError, type FederatorError } from './errors.js';
import type { MetricsRegistry } from '../shared/metrics/registry.js';
import { INTEGRATION_PATH, serveIntegration } from './integration-face.js';
import { outwardCall } from './paths.js';
import type { RemoteClient } from './remote-client.js';
import type { Remotes } from './remotes.js';
import { readBody } from './request-body.js';
import { bearerMatches } from './shared-token.js';
import { serveStatus, timeRequest } from './status.js';

/** Headers of the worker's call carried on to the remote. */
const FORWARDED = ['x-svc-api-version', 'wire-origin-request-id'];

const isFederatorError = (e: unknown): e is FederatorError =>
  typeof e === 'object' && e !== null && 'label' in e && 'status' in e;

/**
 * A remote's error answer as the worker gets it. The federation API answers errors inside a 200,
 * so any other status is the remote federator refusing (403 on a certificate) or a fault: it
 * becomes 533 `federation-remote-error` with the remote's body as `inner`. A 400
 * `federation-denied` passes as it is: the request named a backend that does not federate with us.
 */
function remoteRefusal(
  reply: { status: number; body: Buffer },
  domain: string,
  path: string,
): FederatorError | undefined {
  if (reply.status < 400) return undefined;
  let inner: unknown;
  try {
    inner = JSON.parse(reply.body.toString('utf8'));
  } catch {
    inner = { code: reply.status, label: 'unknown-error', message: reply.body.toString('utf8').slice(0, 500) };
  }
  if (reply.status === 400 && (inner as { label?: unknown }).label === 'federation-denied') return undefined;
  return federatorError(533, 'federation-remote-error', `A remote federator failed with status code: ${reply.status}`, {
    data: { type: 'federation', domain, path },
    inner,
  });
}

/** What the face needs; `federation` is undefined when this backend does not federate. */
interface OutwardOptions {
  ownDomain: string;
  federation: { discovery: Discovery; client: RemoteClient; remotes: Remotes } | undefined;
  metrics: MetricsRegistry;
  /** The shared token (FEDERATOR_INTERNAL_TOKEN): when set, every call must carry it as its bearer. */
  token: string | undefined;
}

/**
 * The face the local worker calls: `POST /integration` (see integration-face.ts), and
 * `POST /rpc/{domain}/{component}/{rpc}`, answered with the
 * remote's own response, or with the federator's error when this backend does not federate with
 * it (400 `federation-denied`, or `federation-not-enabled` with federation off), or when the
 * remote cannot be found (422 `invalid-domain`, 400 `discovery-failure`) or reached (521, 525).
 * With the shared token set, a call without it is refused (401 `unauthorized`).
 */
export function outwardServer(o: OutwardOptions): http.Server {
  return http.createServer((req, res) => {
    void handle(req, res, o).catch((err: unknown) => {
      sendError(res, isFederatorError(err) ? err : federatorError(500, 'internal-error', (err as Error).message));
    });
  });
}

async function handle(req: http.IncomingMessage, res: http.ServerResponse, o: OutwardOptions): Promise<void> {
  if (o.token !== undefined && !bearerMatches(req.headers.authorization, o.token)) {
    timeRequest(req, res, o.metrics, 'N/A');
    return sendError(res, federatorError(401, 'unauthorized', "the federator's internal face needs its bearer token"));
  }
  // Health checks and scrapes are requests too: counted, as wire's federator counts every request.
  if (req.url === '/i/status' || req.url === '/i/metrics') timeRequest(req, res, o.metrics, req.url);
  if (serveStatus(req, res, o.metrics)) return;
  if (req.url === INTEGRATION_PATH) return serveIntegration(req, res, o.metrics);
  const call = outwardCall(req.url ?? '');
  timeRequest(req, res, o.metrics, call === undefined ? 'N/A' : '/rpc/:domain/:component/:rpc');
  if (call === undefined) return sendError(res, federatorError(404, 'no-endpoint', 'no such federation endpoint'));
  if (req.method !== 'POST') return sendError(res, federatorError(405, 'method-not-allowed', 'only POST is supported'));
  if (o.federation === undefined)
    return sendError(res, federatorError(400, 'federation-not-enabled', 'federation is off on this backend'));
  const { discovery, client, remotes } = o.federation;
  const body = await readBody(req);
  const count = (status: number) =>
    o.metrics.count('svc_federator_outward_requests_total', {
      domain: call.domain,
      component: call.component,
      rpc: call.rpc,
      status: `${status}`,
    });
  // Both ways: this backend calls no backend it would not take calls from.
  if (!(await remotes.allows(call.domain))) {
    count(400);
    return sendError(res, federatorError(400, 'federation-denied', `not federating with ${call.domain}`));
  }
  const found = await discovery.find(call.domain);
  if (!found.ok) {
    const e =
      found.reason === 'no-record'
        ? federatorError(422, 'invalid-domain', found.detail)
        : federatorError(400, 'discovery-failure', found.detail);
    count(e.status);
    return sendError(res, e);
  }
  const path = `/federation/${call.component}/${call.rpc}`;
  const headers: Record<string, string> = { 'content-type': 'application/json', 'wire-origin-domain': o.ownDomain };
  for (const h of FORWARDED) if (typeof req.headers[h] === 'string') headers[h] = req.headers[h];
  try {
    const reply = await client.post(call.domain, found.target, path, headers, body);
    count(reply.status);
    const refusal = remoteRefusal(reply, call.domain, path);
    if (refusal !== undefined) return sendError(res, refusal);
    res.writeHead(reply.status, { 'content-type': reply.contentType ?? 'application/json' });
    res.end(reply.body);
  } catch (err) {
    if (isFederatorError(err)) count(err.status);
    throw err;
  }
}
