import { describe, expect, it } from 'vitest';
import { audience, clientsOf, entriesOf, type StoredEntry } from '../../../src/objects/notifications/row-entries.js';
import type { DeliveryEntry } from '../../../src/shared/notifications/types.js';

const u1 = '6a1c3f4e-0000-4000-8000-000000000001';
const u2 = '6a1c3f4e-0000-4000-8000-000000000002';
const row = (h: string, to: DeliveryEntry[]) => JSON.stringify({ h, t: ']', to });

describe('entriesOf', () => {
  it("finds a user's entries, in order, with their clients, among others'", () => {
    const to: DeliveryEntry[] = [
      [u1, ['aa01', 'aa02'], 'x1'],
      [u2, null, 'y'],
      [u1, null, ''],
    ];
    expect(entriesOf(row('[{"a":1}', to), u1)).toEqual([to[0], to[2]]);
    expect(entriesOf(row('[{"a":1}', to), u2)).toEqual([to[1]]);
    expect(entriesOf(row('[{"a":1}', to), 'someone-else')).toEqual([]);
  });

  it("is not fooled by the user's id inside the shared text (a member list)", () => {
    const head = `[{"data":{"user_ids":["${u1}","${u2}"]}}`;
    expect(entriesOf(row(head, [[u2, null, '']]), u1)).toEqual([]);
    expect(entriesOf(row(head, [[u2, null, '']]), u2)).toEqual([[u2, null, '']]);
  });

  it('parses the whole row when a middle holds what looks like the end of an entry', () => {
    const to: DeliveryEntry[] = [
      [u1, null, 'a"],["b'],
      [u2, null, 'c'],
    ];
    expect(entriesOf(row('[', to), u1)).toEqual([to[0]]);
    expect(entriesOf(row('[', to), u2)).toEqual([to[1]]);
  });

  it('finds entries whose queues and GET /notifications see them differently, with both views', () => {
    const same = ['q1'];
    const to: StoredEntry[] = [
      [u1, audience(null, undefined), ''],
      [u2, audience(['q1', 'l1'], ['l1']), 'x'],
      [u1, audience(same, same), ''],
    ];
    expect(entriesOf(JSON.stringify({ h: '[', t: ']', to }), u1)).toEqual([to[0], to[2]]);
    expect(entriesOf(JSON.stringify({ h: '[', t: ']', to }), u2)).toEqual([to[1]]);
    expect([clientsOf(to[0]![1], 'queue'), clientsOf(to[0]![1], 'list')]).toEqual([null, undefined]);
    expect([clientsOf(to[1]![1], 'queue'), clientsOf(to[1]![1], 'list')]).toEqual([['q1', 'l1'], ['l1']]);
    expect(to[2]![1]).toBe(same); // alike for both: stored as it always was
  });
});
