import { createHash, timingSafeEqual } from 'node:crypto';

// The secret the worker and its federator share (FEDERATOR_INTERNAL_TOKEN), for deployments where
// they meet across a network: the federator requires it of the worker's calls and sends it with
// its own calls to the worker's internal ingress.

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/**
 * Whether an `Authorization` header is `Bearer <token>`. Digests are compared, in constant time,
 * so neither the time taken nor the lengths tell anything about the token.
 */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const given = header?.startsWith('Bearer ') ? header.slice('Bearer '.length) : '';
  return timingSafeEqual(digest(given), digest(token)) && given !== '';
}

/** A call to the worker's internal ingress (its federation API, `/i/federation/remotes`). */
export type WorkerCall = (path: string, init?: RequestInit) => Promise<Response>;

/** Calls to the worker at `base`, carrying the shared token when there is one. */
export function workerCall(base: Promise<URL>, token: string | undefined): WorkerCall {
  return async (path, init = {}) => {
    const headers = new Headers(init.headers);
    if (token !== undefined) headers.set('authorization', `Bearer ${token}`);
    return fetch(new URL(path, await base), { ...init, headers });
  };
}
