import { describe, expect, it } from 'vitest';
import { isUuidV1, UuidV1Generator, uuidV1Time } from '../../../src/objects/notifications/uuid-v1.js';

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
