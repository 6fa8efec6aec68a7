import type { Config } from '../../../shared/config/index.js';
import { chunked } from '../../../shared/chunked.js';
import { memberLeaveData } from '../../../shared/events/member-events.js';
import { groupBy } from '../../../shared/group-by.js';
import type { QualifiedId } from '../../api/schemas/common.js';
import { forEveryVersion, queuedForRemotes } from '../../federation/outbox.js';
import { database, type Db } from '../../db/client.js';
import { type Change, joinChanges, noChange } from '../../effects/commit-change.js';
import { conversationEvent } from '../../events/conversation-events.js';
import { publishEffect } from '../../events/publish.js';
import { remoteMembersNotified } from '../federation/conversation-updated.js';
import { membershipChangedEffect } from './conversation-object.js';
import type { ConversationRow } from './conversation-store.js';
import { conversationBook } from './conversation-book.js';
import { notificationTo } from '../../federation/contract.js';
import { onUserDeletedConversationsRpc } from '../federation/user-deleted-conversations.js';

/** How many conversations one on-user-deleted-conversations notification names at most (wire's range). */
const CONVERSATIONS_PER_NOTIFICATION = 1000;

async function allConversationsOf(env: Env, user: QualifiedId): Promise<QualifiedId[]> {
  const convs: QualifiedId[] = [];
  for (let after: QualifiedId | undefined; ; ) {
    const page = await conversationBook.idsOf(env, user, 500, after);
    convs.push(...page);
    if (page.length < 500) break;
    after = page.at(-1);
  }
  return convs;
}

/**
 * A deleted user leaves every conversation, as a change for the account's deletion to commit. In
 * those owned here the remaining members get `member-leave` (reason `user-deleted`), local ones
 * and remote ones through their backends, and so do `alsoTell` (a team's admins, when a team
 * member is deleted). Copies of other backends' conversations without local users left go; their
 * owners are told (on-user-deleted-conversations) and announce it themselves.
 */
export async function leavingAllConversations(
  env: Env,
  config: Config,
  user: QualifiedId,
  alsoTell: readonly string[] = [],
): Promise<Change> {
  const db = database(env.DB);
  const changes: Change[] = [];
  const copies: ConversationRow[] = [];
  for (const id of await allConversationsOf(env, user)) {
    const conv = await conversationBook.get(env, id);
    if (conv === undefined) continue;
    const members = await conversationBook.members(env, id);
    const remaining = members.filter((m) => !(m.userId === user.id && m.userDomain === user.domain));
    const leaving = joinChanges(conversationBook.removeMembers(env, id, [user]), {
      statements: [],
      effects: [membershipChangedEffect(id, [user])],
    });
    if (conv.domain !== user.domain) {
      copies.push(conv);
      const locals = remaining.some((m) => m.userDomain === user.domain);
      changes.push(leaving, locals ? noChange() : conversationBook.remove(env, conv, remaining));
      continue;
    }
    changes.push(leaving);
    if (conv.type === 1) continue;
    const data = memberLeaveData([user], 'user-deleted');
    const event = conversationEvent('conversation.member-leave', conv, user, data, { team: conv.team });
    const local = remaining.filter((m) => m.userDomain === user.domain).map((m) => m.userId);
    const recipients = new Set([...local, ...alsoTell]);
    recipients.delete(user.id);
    const told = [...recipients].map((u) => ({ user: u }));
    changes.push(
      { statements: [], effects: [publishEffect(told, event)] },
      remoteMembersNotified(db, config, conv, remaining, event),
    );
  }
  return joinChanges(...changes, ownersTold(db, user, copies));
}

/** The owners of conversations the user was in elsewhere: on-user-deleted-conversations, queued. */
function ownersTold(db: Db, user: QualifiedId, copies: readonly ConversationRow[]): Change {
  const notifications = [...groupBy(copies, (c) => c.domain)].flatMap(([domain, convs]) =>
    chunked(
      convs.map((c) => c.id),
      CONVERSATIONS_PER_NOTIFICATION,
    ).map((conversations) =>
      notificationTo(onUserDeletedConversationsRpc, domain, forEveryVersion({ user: user.id, conversations })),
    ),
  );
  return queuedForRemotes(db, notifications);
}
