// The worker's calls to integrations (legal hold services, bots). Their TLS is pinned to the key
// the team registered, which fetch cannot check, so the sidecar makes them (federator-node's
// integration face) and hands back the integration's answer.
import type { Config } from '../../shared/config/index.js';
import { federatorPost } from '../federation/federator-link.js';
import { log } from '../../shared/log.js';

export interface IntegrationCall {
  url: string;
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: unknown;
  /** The registered keys' fingerprints, one of which the integration's certificate must carry. */
  fingerprint: string | string[];
}

export type IntegrationReply = { ok: true; status: number; body: string } | { ok: false; why: string };

function messageOf(text: string): string | undefined {
  try {
    const m = (JSON.parse(text) as { message?: unknown }).message;
    return typeof m === 'string' ? m : undefined;
  } catch {
    return undefined;
  }
}

/** Makes the call; `ok: false` when the integration (or the sidecar) cannot be reached. */
export async function callIntegration(config: Config, call: IntegrationCall): Promise<IntegrationReply> {
  const envelope = {
    url: call.url,
    method: call.method,
    headers: {
      accept: 'application/json',
      ...(call.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...call.headers,
    },
    fingerprint: call.fingerprint,
    ...(call.body === undefined ? {} : { body: JSON.stringify(call.body) }),
  };
  let res: Response;
  try {
    res = await federatorPost(config, '/integration', { 'content-type': 'application/json' }, JSON.stringify(envelope));
  } catch (err) {
    log('warn', 'integration call: the sidecar is not reachable', { error: (err as Error).message });
    return { ok: false, why: 'the sidecar is not reachable' };
  }
  const text = await res.text();
  if (res.status !== 200) return { ok: false, why: messageOf(text) ?? `the sidecar answered ${res.status}` };
  const reply = JSON.parse(text) as { status: number; body: string };
  return { ok: true, status: reply.status, body: reply.body };
}
