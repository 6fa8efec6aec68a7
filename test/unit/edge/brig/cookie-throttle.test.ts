import { describe, expect, it } from 'vitest';
import { loginWait, sampleStdDev } from '../../../../src/edge/brig/auth/cookie-throttle.js';

const s = (seconds: number) => seconds * 1000;

describe('the login cookie throttle', () => {
  it('uses the sample standard deviation, 0 for fewer than two values', () => {
    expect(sampleStdDev([])).toBe(0);
    expect(sampleStdDev([42])).toBe(0);
    expect(sampleStdDev([0, 10])).toBeCloseTo(7.0711, 4);
    expect(sampleStdDev([2, 4, 4, 4, 5, 5, 7, 9])).toBeCloseTo(2.1381, 4);
  });

  it('waits out retryAfter, counted from the newest cookie, while creation times spread no more than stdDev', () => {
    const throttle = { stdDev: 5, retryAfter: 60 };
    const now = s(1000);
    expect(loginWait(now, throttle, [s(990), s(990)])).toBe(50);
    expect(loginWait(now, throttle, [s(983), s(990)])).toBe(50); // spread 4.95
    expect(loginWait(now, throttle, [s(989.6), s(990.4)])).toBe(50); // whole seconds, as wire rounds them
    expect(loginWait(now, throttle, [s(999), s(999.9)])).toBe(60);
  });

  it('lets the login go on when the times spread more than stdDev or the newest is retryAfter old', () => {
    const throttle = { stdDev: 5, retryAfter: 60 };
    const now = s(1000);
    expect(loginWait(now, throttle, [s(982), s(990)])).toBeUndefined(); // spread 5.66
    expect(loginWait(now, throttle, [s(940), s(940)])).toBeUndefined();
    expect(loginWait(now, throttle, [s(941), s(941)])).toBe(1);
    expect(loginWait(now, throttle, [])).toBeUndefined();
    expect(loginWait(now, { stdDev: 5, retryAfter: 0 }, [s(1000), s(1000)])).toBeUndefined();
  });
});
