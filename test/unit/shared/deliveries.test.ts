import { describe, expect, it } from 'vitest';
import { chunkDelivery } from '../../../src/shared/notifications/deliveries.js';
import type { Delivery } from '../../../src/shared/notifications/types.js';

const delivery = (middles: string[]): Delivery => ({
  channel: 'example.com/c',
  head: '[{"a":"',
  tail: '"}]',
  to: middles.map((m, i) => [`u${i}`, [`c${i}`], m]),
});

describe('chunkDelivery', () => {
  it('keeps a delivery that fits one row whole', () => {
    const d = delivery(['x', 'y']);
    expect(chunkDelivery(d, 1000)).toEqual([d]);
  });

  it('splits a large one into parts under the bound, entries in order, head and tail in each', () => {
    const d = delivery(Array.from({ length: 10 }, (_, i) => String(i).repeat(300)));
    const parts = chunkDelivery(d, 1000);
    expect(parts.length).toBeGreaterThan(3);
    expect(parts.flatMap((p) => p.to)).toEqual(d.to);
    for (const p of parts) {
      expect(p).toMatchObject({ channel: d.channel, head: d.head, tail: d.tail });
      expect(p.to.reduce((n, e) => n + e[2].length, 0)).toBeLessThanOrEqual(1000);
    }
  });

  it('keeps a delivery whose shared text alone is large in one part, not a copy per entry', () => {
    const d = { ...delivery(['', '', '']), head: 'h'.repeat(5000) };
    expect(chunkDelivery(d, 1000)).toEqual([d]);
  });

  it('puts an entry larger than the bound in a part of its own', () => {
    const parts = chunkDelivery(delivery(['a', 'b'.repeat(5000), 'c']), 1000);
    expect(parts.map((p) => p.to.map((e) => e[2].length))).toEqual([[1], [5000], [1]]);
  });
});
