import type { Relation } from '../../db/schema.js';

/** Both sides of a relation: what the actor's row says, and what the other user's row says. */
export interface Sides {
  self: Relation | undefined;
  other: Relation | undefined;
}

/** What a request does: the new rows (undefined: unchanged), and whether the limit applies. */
export interface Outcome {
  self?: Relation;
  other?: Relation;
  checkLimit: boolean;
  /** 201 for a new connection, 200 for a change, 204 for none. */
  status: 200 | 201 | 204;
}

export type Refusal = 'bad-conn-update' | 'not-connected';

const LH: Relation = 'missing-legalhold-consent';

/** `POST /connections/{d}/{u}`: request a connection, or accept/re-send one that exists. */
export function onConnect(s: Sides): Outcome | Refusal {
  if (s.self === undefined || s.other === undefined)
    return { self: 'sent', other: 'pending', checkLimit: true, status: 201 };
  if (s.self === LH || s.other === LH || s.self === 'blocked') return 'bad-conn-update';
  if (s.other === 'blocked') {
    const unchanged = s.self === 'accepted' || s.self === 'sent';
    return unchanged ? { checkLimit: false, status: 200 } : { self: 'sent', checkLimit: false, status: 200 };
  }
  if (s.self === 'accepted' && s.other === 'accepted') return { checkLimit: false, status: 200 };
  if (s.other === 'sent' || s.other === 'accepted')
    return { self: 'accepted', other: 'accepted', checkLimit: s.self !== 'sent' && s.self !== 'accepted', status: 200 };
  // the other side ignored, was asked, or cancelled: ask again
  return { self: 'sent', other: 'pending', checkLimit: s.self !== 'sent' && s.self !== 'accepted', status: 200 };
}

/** `PUT /connections/{d}/{u}`: the transitions a user may make on their side. */
export function onUpdate(s: Sides, wanted: Relation): Outcome | Refusal {
  const { self, other } = s;
  if (self === undefined) return 'not-connected';
  if (self === LH || wanted === LH || other === LH) return 'bad-conn-update';
  if (self === wanted) return { checkLimit: false, status: 204 };
  const accept: Outcome = { self: 'accepted', other: 'accepted', checkLimit: true, status: 200 };
  switch (self) {
    case 'pending':
    case 'ignored':
      if (wanted === 'accepted') return accept;
      if (wanted === 'blocked' || (self === 'pending' && wanted === 'ignored'))
        return { self: wanted, checkLimit: false, status: 200 };
      return 'bad-conn-update';
    case 'blocked':
      if (wanted !== 'accepted' && wanted !== 'sent') return 'bad-conn-update';
      if (other === 'accepted' || other === 'blocked' || other === 'sent')
        return {
          self: 'accepted',
          ...(other === 'sent' ? { other: 'accepted' as const } : {}),
          checkLimit: true,
          status: 200,
        };
      return { self: 'sent', other: 'pending', checkLimit: true, status: 200 };
    case 'accepted':
      return wanted === 'blocked' ? { self: 'blocked', checkLimit: false, status: 200 } : 'bad-conn-update';
    case 'sent':
      if (wanted === 'blocked') return { self: 'blocked', checkLimit: false, status: 200 };
      if (wanted === 'cancelled') return { self: 'cancelled', other: 'cancelled', checkLimit: false, status: 200 };
      if (wanted === 'accepted' && (other === 'sent' || other === 'accepted')) return accept;
      return 'bad-conn-update';
    case 'cancelled':
      return wanted === 'blocked' ? { self: 'blocked', checkLimit: false, status: 200 } : 'bad-conn-update';
  }
  return 'bad-conn-update';
}
