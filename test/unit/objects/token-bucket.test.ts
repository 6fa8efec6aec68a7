import { describe, expect, it } from 'vitest';
import { TokenBucket } from '../../../src/objects/token-bucket.js';

describe('token bucket', () => {
  it('allows a full bucket, then refuses with the time to the next token', () => {
    const b = new TokenBucket();
    for (let i = 0; i < 3000; i++) expect(b.take(3000, 50, 1000).allowed).toBe(true);
    expect(b.take(3000, 50, 1000)).toEqual({ allowed: false, retryAfterSeconds: 1 });
  });

  it('refills at the rate and never above capacity', () => {
    const b = new TokenBucket();
    for (let i = 0; i < 2; i++) b.take(2, 1, 0);
    expect(b.take(2, 1, 500).allowed).toBe(false);
    expect(b.take(2, 1, 1500).allowed).toBe(true);
    // a long pause refills to capacity (2), not more
    expect([b.take(2, 1, 100_000), b.take(2, 1, 100_000), b.take(2, 1, 100_000)].map((r) => r.allowed)).toEqual([
      true,
      true,
      false,
    ]);
  });

  it('says how long a slow refill takes', () => {
    const b = new TokenBucket();
    b.take(1, 1 / 60, 0);
    expect(b.take(1, 1 / 60, 0)).toEqual({ allowed: false, retryAfterSeconds: 60 });
  });
});
