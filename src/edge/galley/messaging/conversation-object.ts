import type { QualifiedId } from '../../api/schemas/common.js';
import type { Db } from '../../db/client.js';
import { conversationStore } from '../conversations/conversation-store.js';

/** The conversation's object (its ordering point), reached through its RPC methods. */
export function conversationObject(env: Env, conv: QualifiedId) {
  return env.CONVERSATIONS.get(env.CONVERSATIONS.idFromName(`${conv.domain}/${conv.id}`));
}

/** Membership changed: the conversation's object reads its members again. */
export const membershipChanged = (env: Env, conv: QualifiedId) => conversationObject(env, conv).invalidate();

/** A user's clients changed: every conversation of theirs reads members and clients again. */
export async function clientsChanged(env: Env, db: Db, user: QualifiedId): Promise<void> {
  let after: QualifiedId | undefined;
  for (;;) {
    const page = await conversationStore.idsOf(db, user, 500, after);
    await Promise.all(page.map((conv) => membershipChanged(env, conv)));
    if (page.length < 500) return;
    after = page.at(-1);
  }
}
