import type http from 'node:http';
import { federatorError, sendError } from './errors.js';
import type { MetricsRegistry } from '../shared/metrics/registry.js';
import { pinnedCall, type PinnedRequest } from './pinned-call.js';
import { readBody } from './request-body.js';
import { timeRequest } from './status.js';

/** Where the worker asks for a pinned call to an integration. */
export const INTEGRATION_PATH = '/integration';

const isStringRecord = (v: unknown): v is Record<string, string> =>
  typeof v === 'object' && v !== null && Object.values(v).every((x) => typeof x === 'string');

const isPin = (v: unknown): v is string | string[] =>
  typeof v === 'string' || (Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'string'));

/** The worker's envelope: `{url, method, headers, body?, fingerprint}` (one or several); only https URLs. */
function parsed(text: string): PinnedRequest | undefined {
  let v: Record<string, unknown>;
  try {
    v = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (typeof v.url !== 'string' || !URL.canParse(v.url)) return undefined;
  const url = new URL(v.url);
  if (url.protocol !== 'https:' || (v.method !== 'GET' && v.method !== 'POST')) return undefined;
  if (!isStringRecord(v.headers) || !isPin(v.fingerprint)) return undefined;
  if (v.body !== undefined && typeof v.body !== 'string') return undefined;
  return { url, method: v.method, headers: v.headers, body: v.body, fingerprint: v.fingerprint };
}

/**
 * `POST /integration`: the worker's call to an integration, made over TLS pinned to the
 * integration's key; answered `{status, body}` with the integration's own answer, or 502
 * `integration-unreachable`.
 */
export async function serveIntegration(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  metrics: MetricsRegistry,
): Promise<void> {
  timeRequest(req, res, metrics, INTEGRATION_PATH);
  if (req.method !== 'POST') return sendError(res, federatorError(405, 'method-not-allowed', 'only POST is supported'));
  const call = parsed((await readBody(req)).toString('utf8'));
  if (call === undefined) return sendError(res, federatorError(400, 'bad-request', 'not an integration call'));
  const reply = await pinnedCall(call);
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(reply));
}
