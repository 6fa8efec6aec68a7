import { describe, expect, it } from 'vitest';
import {
  isUuidV1,
  seqTime,
  timeKey,
  timeSeq,
  UuidV1Generator,
  uuidV1Key,
  uuidV1Seq,
  uuidV1Time,
} from '../../../src/shared/uuid-v1.js';

describe('v1 UUIDs for notification ids', () => {
  it('are version 1, carry their time, and increase strictly even within one millisecond', () => {
    const gen = new UuidV1Generator();
    const now = Date.UTC(2026, 10, 21, 12, 0, 0);
    const ids = [gen.next(now), gen.next(now), gen.next(now + 1)];
    for (const id of ids) expect(isUuidV1(id)).toBe(true);
    expect(uuidV1Time(ids[0]!)).toBe(now);
    expect(uuidV1Time(ids[2]!)).toBe(now + 1);
    expect(new Set(ids).size).toBe(3);
  });

  it('refuses other versions', () => {
    expect(isUuidV1('6f1d2a0e-8c33-4b8e-9f3a-0d1c2b3a4f5e')).toBe(false);
    expect(isUuidV1('not-a-uuid')).toBe(false);
  });
});

describe('v1 UUID keys', () => {
  it('sort as the ids were made, also across a carry into the middle time field', () => {
    const gen = new UuidV1Generator();
    const ids: string[] = [];
    for (let ms = Date.UTC(2026, 10, 21); ids.length < 3000; ms += 1)
      for (let i = 0; i < 3; i++) ids.push(gen.next(ms));
    const keys = ids.map(uuidV1Key);
    expect([...keys].sort()).toEqual(keys);
    expect(new Set(keys).size).toBe(keys.length);
    for (const id of ids.slice(0, 5)) expect(isUuidV1(id)).toBe(true);
  });

  it('compare with time keys at millisecond precision', () => {
    const gen = new UuidV1Generator();
    const now = Date.UTC(2026, 10, 21, 12);
    const key = uuidV1Key(gen.next(now));
    expect(key >= timeKey(now)).toBe(true);
    expect(key < timeKey(now + 1)).toBe(true);
  });

  it('fall back to whole-time formatting when the low field wraps within a millisecond', () => {
    const gen = new UuidV1Generator();
    // A millisecond whose 10,000 ticks carry out of the low 32 bits (one in every ~430,000).
    let ms = Date.UTC(2026, 10, 21);
    const lowAt = (m: number) => Number((BigInt(m) * 10000n + 0x01b21dd213814000n) & 0xffffffffn);
    while (lowAt(ms) + 9999 <= 0xffffffff) ms += 1;
    const ids = Array.from({ length: 10000 }, () => gen.next(ms));
    const keys = ids.map(uuidV1Key);
    expect([...keys].sort()).toEqual(keys);
    for (const id of ids) expect(uuidV1Time(id)).toBe(ms);
  });
});

describe('v1 UUID row numbers (uuidV1Seq)', () => {
  it('count 100-ns ticks: consecutive ids differ by one, and a millisecond starts at timeSeq', () => {
    const g = new UuidV1Generator();
    const ms = Date.UTC(2026, 10, 24, 12, 0, 0);
    const [a, b, c] = [g.next(ms), g.next(ms), g.next(ms)];
    expect(uuidV1Seq(a)).toBe(timeSeq(ms));
    expect([uuidV1Seq(b) - uuidV1Seq(a), uuidV1Seq(c) - uuidV1Seq(b)]).toEqual([1, 1]);
    expect(seqTime(uuidV1Seq(c))).toBe(ms);
    expect(Number.isSafeInteger(uuidV1Seq(g.next(Date.UTC(2047, 11, 31))))).toBe(true);
    // Exact across a carry from the low time field into the middle one.
    const carry = '00000000-1234-11f0-8000-000000000001';
    expect(uuidV1Seq(carry) - uuidV1Seq('ffffffff-1233-11f0-8000-000000000001')).toBe(1);
    expect(uuidV1Seq(carry)).toBe(Number(0x1f01234_00000000n - (1577836800000n * 10000n + 122192928000000000n)));
  });
});
