import { describe, expect, it } from 'vitest';
import { FailureBudget } from '../../../src/objects/failure-budget.js';

describe('failed-login budget', () => {
  it('blocks after the limit within the window, until the window (opened at the first failure) ends', () => {
    const b = new FailureBudget();
    const t0 = 1_000_000;
    for (let i = 0; i < 3; i++) {
      expect(b.blockedFor(3, t0 + i)).toBe(0);
      b.spend(60, t0 + i);
    }
    expect(b.blockedFor(3, t0 + 10)).toBe(60);
    expect(b.blockedFor(3, t0 + 59_500)).toBe(1);
    expect(b.blockedFor(3, t0 + 60_000)).toBe(0);
  });

  it('starts a fresh window after the old one ends', () => {
    const b = new FailureBudget();
    b.spend(10, 0);
    b.spend(10, 10_000);
    expect(b.blockedFor(2, 10_001)).toBe(0);
  });
});
