import type { Relation } from '../../../shared/db/schema.js';

/** Both sides of a relation: what the actor's row says, and what the other user's row says. */
export interface Sides {
  self: Relation | undefined;
  other: Relation | undefined;
}

/**
 * What a request does: the new rows (undefined: unchanged), whether the limit applies, and what
 * becomes of the two users' conversation. Each new row is announced to its owner (`user.connection`).
 */
export interface Outcome {
  self?: Relation;
  other?: Relation;
  checkLimit: boolean;
  /** 201 for a new connection, 200 for a change, 204 for none. */
  status: 200 | 201 | 204;
  /**
   * The request opens the connect conversation (or asks again in it), an acceptance or unblocking
   * joins it (making it the 1:1 when the other user is in it), blocking or cancelling leaves it.
   */
  conversation?: 'open' | 'accept' | 'leave';
  /** The actor's new row is not announced (asking someone who blocked them, as wire does). */
  quiet?: boolean;
}

export type Refusal = 'bad-conn-update' | 'not-connected';

const LH: Relation = 'missing-legalhold-consent';

/** `POST /connections/{d}/{u}`: request a connection, or accept/re-send one that exists. */
export function onConnect(s: Sides): Outcome | Refusal {
  if (s.self === undefined || s.other === undefined)
    return { self: 'sent', other: 'pending', conversation: 'open', checkLimit: true, status: 201 };
  if (s.self === LH || s.other === LH || s.self === 'blocked') return 'bad-conn-update';
  if (s.other === 'blocked') {
    const unchanged = s.self === 'accepted' || s.self === 'sent';
    return unchanged
      ? { checkLimit: false, status: 200 }
      : { self: 'sent', quiet: true, checkLimit: false, status: 200 };
  }
  if (s.self === 'accepted' && s.other === 'accepted') return { checkLimit: false, status: 200 };
  const checkLimit = s.self !== 'sent' && s.self !== 'accepted';
  if (s.other === 'sent' || s.other === 'accepted')
    return { self: 'accepted', other: 'accepted', conversation: 'accept', checkLimit, status: 200 };
  // the other side ignored, was asked, or cancelled: ask again
  return { self: 'sent', other: 'pending', conversation: 'open', checkLimit, status: 200 };
}

/** An acceptance: the other side is accepted too when it asked (or was asked, in a mutual race). */
const accept = (other: Relation | undefined, asked: readonly Relation[]): Outcome => ({
  self: 'accepted',
  ...(other !== undefined && asked.includes(other) ? { other: 'accepted' as const } : {}),
  conversation: 'accept',
  checkLimit: true,
  status: 200,
});

const block: Outcome = { self: 'blocked', conversation: 'leave', checkLimit: false, status: 200 };

/** `PUT /connections/{d}/{u}`: the transitions a user may make on their side. */
export function onUpdate(s: Sides, wanted: Relation): Outcome | Refusal {
  const { self, other } = s;
  if (self === undefined) return 'not-connected';
  if (self === LH || wanted === LH || other === LH) return 'bad-conn-update';
  if (self === wanted) return { checkLimit: false, status: 204 };
  switch (self) {
    case 'pending':
    case 'ignored':
      if (wanted === 'accepted') return accept(other, ['sent', 'pending']);
      if (wanted === 'blocked') return block;
      if (self === 'pending' && wanted === 'ignored') return { self: wanted, checkLimit: false, status: 200 };
      return 'bad-conn-update';
    case 'blocked':
      if (wanted !== 'accepted' && wanted !== 'sent') return 'bad-conn-update';
      // Unblocking takes the conversation back; the other side changes only when it asked.
      if (other === 'accepted' || other === 'blocked' || other === 'sent') return accept(other, ['sent']);
      return { self: 'sent', conversation: 'accept', checkLimit: true, status: 200 };
    case 'accepted':
      return wanted === 'blocked' ? block : 'bad-conn-update';
    case 'sent':
      if (wanted === 'blocked') return block;
      if (wanted === 'cancelled') {
        if (other === 'pending' || other === 'ignored')
          return { self: 'cancelled', other: 'cancelled', conversation: 'leave', checkLimit: false, status: 200 };
        if (other === 'blocked' || other === 'cancelled') return { self: 'cancelled', checkLimit: false, status: 200 };
        return 'bad-conn-update';
      }
      if (wanted === 'accepted' && (other === 'sent' || other === 'accepted')) return accept(other, ['sent']);
      return 'bad-conn-update';
    case 'cancelled':
      return wanted === 'blocked' ? block : 'bad-conn-update';
  }
  return 'bad-conn-update';
}
