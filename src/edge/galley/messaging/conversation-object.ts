import type { Config } from '../../../shared/config/index.js';
import type { QualifiedId } from '../../api/schemas/common.js';
import type { Db } from '../../db/client.js';
import { conversationStore } from '../conversations/conversation-store.js';

/** The conversation's object (its ordering point), reached through its RPC methods. */
export function conversationObject(env: Env, conv: QualifiedId) {
  return env.CONVERSATIONS.get(env.CONVERSATIONS.idFromName(`${conv.domain}/${conv.id}`));
}

/** Who left, for the backend's MLS removal proposals (see Leaving). */
export interface Left {
  config: Config;
  /** Users (all their clients), or one client of a user. */
  targets: Array<{ id: string; domain: string; client?: string }>;
}

/**
 * Membership changed: the conversation's object reads its members again; users or clients that
 * `left` are proposed for removal from its MLS group.
 */
export function membershipChanged(env: Env, conv: QualifiedId, left?: Left): Promise<void> {
  const leaving =
    left === undefined
      ? undefined
      : {
          conv: { id: conv.id, domain: conv.domain },
          targets: left.targets.map((t) => ({ user: t.id, domain: t.domain, client: t.client })),
          localDomain: left.config.brig.optSettings.setFederationDomain,
          ttlSeconds: left.config.gundeck.settings.notificationTTL,
        };
  return conversationObject(env, conv).invalidate(leaving);
}

/** A user's clients changed: every conversation of theirs reads members and clients again (`left`: deleted ones). */
export async function clientsChanged(env: Env, db: Db, user: QualifiedId, left?: Left): Promise<void> {
  let after: QualifiedId | undefined;
  for (;;) {
    const page = await conversationStore.idsOf(db, user, 500, after);
    await Promise.all(page.map((conv) => membershipChanged(env, conv, left)));
    if (page.length < 500) return;
    after = page.at(-1);
  }
}
