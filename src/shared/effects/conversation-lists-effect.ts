import type { QualifiedRef } from '../proteus/types.js';
import type { StoredEffect } from './pending-effects-store.js';

/**
 * The effect of a membership change on the members' lists of their conversations (each local
 * user's Account object): recorded with the change, by galley's conversation book or by a
 * conversation's object with an MLS commit; carried out by the edge
 * (src/edge/galley/conversations/conversation-lists.ts), after a crash by its sweep. `at` orders
 * it against later words on the same membership.
 */
export const CONVERSATION_LISTS_EFFECT = 'conversation-lists';

export interface ConversationListsArgs {
  conv: QualifiedRef;
  joined: QualifiedRef[];
  left: QualifiedRef[];
  at: number;
}

/** The effect, or none when nobody joined or left. */
export function conversationListsEffect(
  conv: QualifiedRef,
  joined: readonly QualifiedRef[],
  left: readonly QualifiedRef[],
  at = Date.now(),
): StoredEffect[] {
  if (joined.length === 0 && left.length === 0) return [];
  const args: ConversationListsArgs = {
    conv: { domain: conv.domain, id: conv.id },
    joined: joined.map((u) => ({ domain: u.domain, id: u.id })),
    left: left.map((u) => ({ domain: u.domain, id: u.id })),
    at,
  };
  return [{ kind: CONVERSATION_LISTS_EFFECT, args }];
}
