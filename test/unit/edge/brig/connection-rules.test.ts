import { describe, expect, it } from 'vitest';
import { onConnect, onUpdate } from '../../../../src/edge/brig/connections/rules.js';
import type { Relation } from '../../../../src/edge/db/schema.js';

const sides = (self?: Relation, other?: Relation) => ({ self, other });

describe('connection requests', () => {
  it.each([
    [sides(), { self: 'sent', other: 'pending', status: 201 }],
    [sides('pending', 'sent'), { self: 'accepted', other: 'accepted', status: 200 }],
    [sides('sent', 'accepted'), { self: 'accepted', other: 'accepted', status: 200, checkLimit: false }],
    [sides('cancelled', 'cancelled'), { self: 'sent', other: 'pending', status: 200 }],
    [sides('sent', 'ignored'), { self: 'sent', other: 'pending', status: 200 }],
    [sides('accepted', 'accepted'), { status: 200 }],
    [sides('sent', 'blocked'), { status: 200 }],
    [sides('cancelled', 'blocked'), { self: 'sent', status: 200 }],
  ] as const)('%j → %j', (s, out) => {
    const r = onConnect(s);
    expect(r).toMatchObject(out);
    if (typeof r !== 'string' && !('self' in out)) expect(r.self).toBeUndefined();
  });

  it('refuses when the requester blocked, or legal hold consent is missing', () => {
    expect(onConnect(sides('blocked', 'pending'))).toBe('bad-conn-update');
    expect(onConnect(sides('missing-legalhold-consent', 'sent'))).toBe('bad-conn-update');
  });
});

describe('connection updates', () => {
  it.each([
    ['pending', 'sent', 'accepted', { self: 'accepted', other: 'accepted', checkLimit: true }],
    ['pending', 'sent', 'ignored', { self: 'ignored' }],
    ['pending', 'sent', 'blocked', { self: 'blocked' }],
    ['ignored', 'sent', 'accepted', { self: 'accepted', other: 'accepted' }],
    ['blocked', 'sent', 'accepted', { self: 'accepted', other: 'accepted' }],
    ['blocked', 'accepted', 'accepted', { self: 'accepted' }],
    ['blocked', 'cancelled', 'sent', { self: 'sent', other: 'pending' }],
    ['accepted', 'accepted', 'blocked', { self: 'blocked' }],
    ['sent', 'pending', 'cancelled', { self: 'cancelled', other: 'cancelled' }],
    ['sent', 'pending', 'blocked', { self: 'blocked' }],
    ['cancelled', 'cancelled', 'blocked', { self: 'blocked' }],
  ] as const)('%s (other %s) → %s', (self, other, wanted, out) => {
    expect(onUpdate(sides(self, other), wanted)).toMatchObject({ status: 200, ...out });
  });

  it.each([
    ['cancelled', 'cancelled', 'sent'],
    ['accepted', 'accepted', 'sent'],
    ['sent', 'pending', 'accepted'],
    ['pending', 'sent', 'cancelled'],
    ['ignored', 'sent', 'ignored-not'],
  ] as const)('refuses %s (other %s) → %s', (self, other, wanted) => {
    if (wanted === 'ignored-not') return expect(onUpdate(sides(self, other), 'pending')).toBe('bad-conn-update');
    expect(onUpdate(sides(self, other), wanted)).toBe('bad-conn-update');
  });

  it('answers 204 to no change and not-connected without a relation', () => {
    expect(onUpdate(sides('accepted', 'accepted'), 'accepted')).toMatchObject({ status: 204 });
    expect(onUpdate(sides(), 'accepted')).toBe('not-connected');
  });
});
