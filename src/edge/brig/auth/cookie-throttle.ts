import type { Config } from '../../../shared/config/index.js';

/** Both in seconds. */
type CookieThrottle = Config['brig']['optSettings']['setUserCookieThrottle'];

/** The sample standard deviation (n − 1 in the denominator); 0 for fewer than two values. */
export function sampleStdDev(xs: readonly number[]): number {
  if (xs.length < 2) return 0;
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  return Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (xs.length - 1));
}

/**
 * wire's throttle for a login that would evict a cookie: the seconds to wait while the cookies'
 * creation times (whole seconds) spread no more than `stdDev` and the newest is younger than
 * `retryAfter`; `undefined` when the login may go on.
 */
export function loginWait(nowMs: number, throttle: CookieThrottle, createdMs: readonly number[]): number | undefined {
  if (createdMs.length === 0) return undefined;
  const created = createdMs.map((ms) => Math.round(ms / 1000));
  const sinceNewest = Math.round(nowMs / 1000) - Math.max(...created);
  if (sampleStdDev(created) > throttle.stdDev || sinceNewest >= throttle.retryAfter) return undefined;
  return throttle.retryAfter - sinceNewest;
}
