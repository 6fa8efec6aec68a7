import { DurableObject } from 'cloudflare:workers';
import type { Env } from '../edge/env.js';

/**
 * A token bucket; one object per bucket key (zone and caller), so takes are serialized.
 * The bucket lives in memory: if the object is evicted after idling, the bucket has had
 * time to refill anyway, so persisting it would buy nothing but a write per request.
 */
export class RateLimiter extends DurableObject<Env> {
  private tokens = 0;
  private updatedAt = 0;
  private capacity = 0;

  take(capacity: number, refillPerSecond: number, cost = 1): { allowed: boolean; retryAfterSeconds: number } {
    const now = Date.now();
    if (this.capacity !== capacity) {
      // First use, or the limit was reconfigured: start from a full bucket.
      this.capacity = capacity;
      this.tokens = capacity;
    } else {
      this.tokens = Math.min(capacity, this.tokens + ((now - this.updatedAt) / 1000) * refillPerSecond);
    }
    this.updatedAt = now;
    if (this.tokens >= cost) {
      this.tokens -= cost;
      return { allowed: true, retryAfterSeconds: 0 };
    }
    const missing = cost - this.tokens;
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(missing / refillPerSecond)) };
  }
}
