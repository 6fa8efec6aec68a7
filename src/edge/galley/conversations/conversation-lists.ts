import { localDomain } from '../../../shared/config/index.js';
import { askEach } from '../../../shared/chunked.js';
import {
  CONVERSATION_LISTS_EFFECT,
  type ConversationListsArgs,
} from '../../../shared/effects/conversation-lists-effect.js';
import type { QualifiedRef } from '../../../shared/proteus/types.js';
import { accountOf } from '../../db/account-of.js';
import type { QualifiedId } from '../../api/schemas/common.js';
import { defineEffect } from '../../effects/effect.js';

/**
 * Each local user's list of their conversations lives in their Account object
 * (docs/architecture.md, "Conversation objects own their conversation", step 3): a membership
 * change tells the objects of the local users who joined or left, 50 at a time.
 */
defineEffect(CONVERSATION_LISTS_EFFECT, async ({ env, config }, a: ConversationListsArgs) => {
  const local = localDomain(config);
  const words = [
    ...a.joined.filter((u) => u.domain === local).map((u) => ({ user: u.id, member: true })),
    ...a.left.filter((u) => u.domain === local).map((u) => ({ user: u.id, member: false })),
  ];
  await askEach(words, (w) =>
    accountOf(env, w.user).conversationMembership({ id: w.user, domain: local }, a.conv, w.member, a.at),
  );
});

/** The user's conversations ordered by (domain, id), after a position: the list-ids pages. */
export function conversationIdsOf(env: Env, user: QualifiedId, size: number, after?: QualifiedRef) {
  return accountOf(env, user.id).conversationIds(user.id, size, after);
}

/** The user's conversations of one domain, ordered by id after `start`: older versions' pages. */
export function conversationIdsIn(env: Env, user: QualifiedId, domain: string, size: number, start?: string) {
  return accountOf(env, user.id).conversationIdsIn(user.id, domain, size, start);
}
