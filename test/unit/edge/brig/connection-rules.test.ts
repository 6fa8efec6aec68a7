import { describe, expect, it } from 'vitest';
import { onConnect, onUpdate } from '../../../../src/edge/brig/connections/rules.js';
import type { Relation } from '../../../../src/shared/db/schema.js';

const sides = (self?: Relation, other?: Relation) => ({ self, other });

describe('connection requests', () => {
  it.each([
    [sides(), { self: 'sent', other: 'pending', conversation: 'open', status: 201 }],
    [sides('pending', 'sent'), { self: 'accepted', other: 'accepted', conversation: 'accept', status: 200 }],
    [
      sides('sent', 'accepted'),
      { self: 'accepted', other: 'accepted', conversation: 'accept', status: 200, checkLimit: false },
    ],
    [sides('cancelled', 'cancelled'), { self: 'sent', other: 'pending', conversation: 'open', status: 200 }],
    // Asking again repeats the request (wire's resend), both rows announced again.
    [sides('sent', 'pending'), { self: 'sent', other: 'pending', conversation: 'open', status: 200 }],
    [sides('sent', 'ignored'), { self: 'sent', other: 'pending', conversation: 'open', status: 200 }],
    [sides('accepted', 'accepted'), { status: 200 }],
    [sides('sent', 'blocked'), { status: 200 }],
    // Asking someone who blocked: 'sent', silently, and nothing happens to the conversation.
    [sides('cancelled', 'blocked'), { self: 'sent', quiet: true, status: 200 }],
  ] as const)('%j → %j', (s, out) => {
    const r = onConnect(s);
    expect(r).toMatchObject(out);
    if (typeof r !== 'string' && !('self' in out)) expect(r.self).toBeUndefined();
    if (typeof r !== 'string' && !('conversation' in out)) expect(r.conversation).toBeUndefined();
  });

  it('refuses when the requester blocked, or legal hold consent is missing', () => {
    expect(onConnect(sides('blocked', 'pending'))).toBe('bad-conn-update');
    expect(onConnect(sides('missing-legalhold-consent', 'sent'))).toBe('bad-conn-update');
  });
});

describe('connection updates', () => {
  it.each([
    ['pending', 'sent', 'accepted', { self: 'accepted', other: 'accepted', conversation: 'accept', checkLimit: true }],
    ['pending', 'sent', 'ignored', { self: 'ignored' }],
    ['pending', 'sent', 'blocked', { self: 'blocked', conversation: 'leave' }],
    ['ignored', 'sent', 'accepted', { self: 'accepted', other: 'accepted', conversation: 'accept' }],
    // The requester blocked meanwhile: their side stays blocked.
    ['pending', 'blocked', 'accepted', { self: 'accepted', conversation: 'accept' }],
    ['blocked', 'sent', 'accepted', { self: 'accepted', other: 'accepted', conversation: 'accept' }],
    ['blocked', 'accepted', 'accepted', { self: 'accepted', conversation: 'accept' }],
    // Unblocking to 'sent' leaves the other side as it is (wire's unblock).
    ['blocked', 'cancelled', 'sent', { self: 'sent', conversation: 'accept' }],
    ['blocked', 'pending', 'accepted', { self: 'sent', conversation: 'accept' }],
    ['accepted', 'accepted', 'blocked', { self: 'blocked', conversation: 'leave' }],
    ['sent', 'pending', 'cancelled', { self: 'cancelled', other: 'cancelled', conversation: 'leave' }],
    ['sent', 'blocked', 'cancelled', { self: 'cancelled' }],
    ['sent', 'pending', 'blocked', { self: 'blocked', conversation: 'leave' }],
    ['cancelled', 'cancelled', 'blocked', { self: 'blocked', conversation: 'leave' }],
  ] as const)('%s (other %s) → %s', (self, other, wanted, out) => {
    const r = onUpdate(sides(self, other), wanted);
    expect(r).toMatchObject({ status: 200, ...out });
    if (typeof r !== 'string' && !('other' in out)) expect(r.other).toBeUndefined();
    if (typeof r !== 'string' && !('conversation' in out)) expect(r.conversation).toBeUndefined();
  });

  it.each([
    ['cancelled', 'cancelled', 'sent'],
    ['accepted', 'accepted', 'sent'],
    ['sent', 'pending', 'accepted'],
    ['pending', 'sent', 'cancelled'],
    ['sent', 'accepted', 'cancelled'],
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
