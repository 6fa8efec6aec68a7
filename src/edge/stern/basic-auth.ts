import { basicCredentials } from '../api/basic-auth.js';

/**
 * The back office's basic authentication: the worker secret STERN_CREDENTIALS holds one
 * `user:password` per line. Without it the back office is not served at all.
 */
export const sternEnabled = (env: Env) => (env.STERN_CREDENTIALS ?? '').trim() !== '';

const encoder = new TextEncoder();

/** Compares without an early exit, so the time taken tells nothing of where they differ. */
function sameText(a: string, b: string): boolean {
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  return x.byteLength === y.byteLength && crypto.subtle.timingSafeEqual(x, y);
}

export function sternAuthorized(req: Request, env: Env): boolean {
  const given = basicCredentials(req);
  if (given === undefined) return false;
  const lines = (env.STERN_CREDENTIALS ?? '').split('\n').map((l) => l.trim());
  // Every line is compared, so the time taken does not tell which user exists.
  return lines.reduce((found, line) => sameText(line, given) || found, false) && given.includes(':');
}
