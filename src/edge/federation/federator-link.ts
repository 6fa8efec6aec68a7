// The worker's way to its federator's internal face (calls to other backends, pinned calls to
// integrations): where it is, and the shared token when they meet across a network.
import type { Config } from '../../shared/config/index.js';

let token: string | undefined;

/**
 * Keeps the worker's secret FEDERATOR_INTERNAL_TOKEN for the calls, which get the configuration
 * only; a worker's secrets are the same for every request an isolate serves (see runtime.ts).
 */
export function keepFederatorToken(env: { FEDERATOR_INTERNAL_TOKEN?: string | undefined }): void {
  token = env.FEDERATOR_INTERNAL_TOKEN || undefined;
}

/** federator.yaml's `federatorInternal.url`, else `http://host:port`; without a trailing slash. */
function base(config: Config): string {
  const { host, port, url } = config.federator.federatorInternal;
  return (url ?? `http://${host}:${port}`).replace(/\/+$/, '');
}

/** A POST to the federator's internal face at `path`, carrying the shared token as its bearer when set. */
export function federatorPost(config: Config, path: string, headers: Record<string, string>, body: string) {
  return fetch(`${base(config)}${path}`, {
    method: 'POST',
    headers: { ...headers, ...(token === undefined ? {} : { authorization: `Bearer ${token}` }) },
    body,
  });
}
