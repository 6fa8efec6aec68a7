import { describe, expect, it } from 'vitest';
import { SLOTS, partitionBindings, partitionOfSlot, slotOf, uuidInSlot } from '../../../src/shared/db/partitions.js';

describe('the directory partitions', () => {
  it('gives each of P databases one contiguous range of slots, covering them all', () => {
    for (const count of [1, 2, 3, 4, 8]) {
      const owners = Array.from({ length: SLOTS }, (_, slot) => partitionOfSlot(slot, count));
      expect(new Set(owners).size).toBe(count);
      expect(owners).toEqual([...owners].sort((a, b) => a - b));
    }
    expect(Array.from({ length: SLOTS }, (_, slot) => partitionOfSlot(slot, 1))).toEqual(Array(SLOTS).fill(0));
  });

  it('keeps a slot in the half of the range it was in when the databases double: rows move, never mix', () => {
    for (let slot = 0; slot < SLOTS; slot++)
      expect(Math.floor(partitionOfSlot(slot, 8) / 2)).toBe(partitionOfSlot(slot, 4));
  });

  it('hashes a key to the same slot everywhere (FNV-1a)', () => {
    expect(slotOf('')).toBe(0x811c9dc5 % SLOTS);
    expect(slotOf('h:alice')).toBe(slotOf('h:alice'));
    const slots = new Set(Array.from({ length: 2000 }, () => slotOf(crypto.randomUUID())));
    expect(slots.size).toBeGreaterThan(SLOTS * 0.9);
  });

  it('draws a uuid in a given slot', () => {
    for (const slot of [0, 17, SLOTS - 1]) {
      const id = uuidInSlot(slot);
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(slotOf(id)).toBe(slot);
    }
  });

  it('finds the bindings DB, DB_1, … as far as they go', () => {
    expect(partitionBindings({ DB: 'a', DB_1: 'b', DB_2: 'c', DB_4: 'e' }, 'a')).toEqual(['a', 'b', 'c']);
    expect(partitionBindings({ DB: 'a' }, 'a')).toEqual(['a']);
  });
});
