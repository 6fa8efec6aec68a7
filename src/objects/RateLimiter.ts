import { DurableObject } from 'cloudflare:workers';
import type { Env } from '../edge/env.js';
import { TokenBucket, type TakeResult } from './token-bucket.js';

/**
 * One token bucket per object, keyed by zone and caller, so that takes are serialized.
 * The bucket lives in memory: an object is evicted only after idling, by which time the
 * bucket has refilled anyway, so persisting it would buy nothing but a write per request.
 */
export class RateLimiter extends DurableObject<Env> {
  private readonly bucket = new TokenBucket();

  take(capacity: number, refillPerSecond: number): TakeResult {
    return this.bucket.take(capacity, refillPerSecond, Date.now());
  }
}
