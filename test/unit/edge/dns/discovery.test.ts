import { afterEach, describe, expect, it, vi } from 'vitest';
import { discovered } from '../../../../src/edge/dns/discovery.js';

describe('DNS discovery kept per isolate', () => {
  afterEach(() => vi.useRealTimers());

  it('looks up again only after the interval, and keeps the last list when a lookup fails or finds nothing', async () => {
    vi.useFakeTimers({ now: 0 });
    const answers: Array<() => Promise<string[]>> = [
      async () => [],
      async () => ['a'],
      async () => {
        throw new Error('resolver down');
      },
      async () => [],
      async () => ['b'],
    ];
    let calls = 0;
    const lookup = () => answers[calls++]!();
    const key = `test-${Math.random()}`;
    expect(await discovered(key, 10, lookup)).toBeUndefined(); // nothing found yet
    expect(await discovered(key, 10, lookup)).toBeUndefined(); // within the interval: no lookup
    expect(calls).toBe(1);
    vi.setSystemTime(10_000);
    expect(await discovered(key, 10, lookup)).toEqual(['a']);
    vi.setSystemTime(20_000);
    expect(await discovered(key, 10, lookup)).toEqual(['a']); // failed: kept
    vi.setSystemTime(30_000);
    expect(await discovered(key, 10, lookup)).toEqual(['a']); // empty: kept
    vi.setSystemTime(40_000);
    expect(await discovered(key, 10, lookup)).toEqual(['b']);
    expect(calls).toBe(5);
  });
});
