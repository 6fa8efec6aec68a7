import { DurableObject } from 'cloudflare:workers';
import { FailureBudget } from './failure-budget.js';
import { TokenBucket, type TakeResult } from './token-bucket.js';

/**
 * One limiter per object, keyed by zone and caller, so that takes are serialized: a token bucket
 * (edge zones, password hashing) or a failure budget (failed logins). State lives in memory: an
 * object is evicted only after idling, by which time the bucket has refilled anyway.
 */
export class RateLimiter extends DurableObject<Env> {
  private readonly bucket = new TokenBucket();
  private readonly budget = new FailureBudget();

  take(capacity: number, refillPerSecond: number): TakeResult {
    return this.bucket.take(capacity, refillPerSecond, Date.now());
  }

  blockedFor(limit: number): number {
    return this.budget.blockedFor(limit, Date.now());
  }

  fail(windowSeconds: number): void {
    this.budget.spend(windowSeconds, Date.now());
  }
}
