export interface TakeResult {
  allowed: boolean;
  retryAfterSeconds: number;
}

/** A token bucket: `capacity` tokens, refilled continuously at `refillPerSecond`. */
export class TokenBucket {
  private tokens = 0;
  private updatedAt = 0;
  private capacity = 0;

  take(capacity: number, refillPerSecond: number, now: number, cost = 1): TakeResult {
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
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((cost - this.tokens) / refillPerSecond)) };
  }
}
