// wire's handleGroupConvPolicyConflicts: once a member is under legal hold, none of their group
// conversations may hold someone who has not consented. Where an admin of the conversation
// consented, the members without consent leave; otherwise the conversation is taken to belong to
// those not interested in legal hold, and its members under legal hold leave. Nobody is left
// without an admin by it.
import { type Config, localDomain } from '../../../shared/config/index.js';
import { memberLeaveData } from '../../../shared/events/member-events.js';
import type { QualifiedId } from '../../api/schemas/common.js';
import { database, type Db } from '../../db/client.js';
import { type Change, joinChanges } from '../../effects/commit-change.js';
import { conversationEvent } from '../../events/conversation-events.js';
import type { ConversationRow, MemberRow } from '../conversations/conversation-store.js';
import { conversationBook } from '../conversations/conversation-book.js';
import { tellMembersEffect } from '../conversations/notify.js';
import { ROLE_ADMIN } from '../conversations/roles.js';
import { membershipChangedEffect } from '../conversations/conversation-object.js';
import { consented } from './join-guard.js';
import { legalholdStore } from './legalhold-store.js';

const PAGE = 500;

/** The members to remove from one conversation: those without consent, or those under legal hold. */
async function leaversOf(db: Db, members: readonly MemberRow[], local: string): Promise<MemberRow[]> {
  const here = members.filter((m) => m.userDomain === local);
  const statuses = await legalholdStore.statuses(
    db,
    here.map((m) => m.userId),
  );
  const under = here.filter((m) => ['enabled', 'pending'].includes(statuses.get(m.userId) ?? ''));
  const without = here.filter((m) => !consented(statuses.get(m.userId)));
  if (under.length === 0 || without.length === 0) return [];
  const adminConsented = here.some((m) => m.role === ROLE_ADMIN && consented(statuses.get(m.userId)));
  return adminConsented ? without : under;
}

/** Each leaver leaves on their own (member-leave `left`), as wire removes them. */
function leave(env: Env, conv: ConversationRow, members: MemberRow[], out: MemberRow[]): Change {
  const targets = out.map((m) => ({ id: m.userId, domain: m.userDomain }));
  const told = targets.map((t) => {
    const data = memberLeaveData([t], 'left');
    const left = conversationEvent('conversation.member-leave', conv, t, data, { team: conv.team });
    return tellMembersEffect(conv, members, left);
  });
  return joinChanges(conversationBook.removeMembers(env, conv, targets), {
    statements: [],
    effects: [membershipChangedEffect(conv, targets), ...told],
  });
}

/**
 * Resolves the conflicts in the group conversations (this backend's) of a user now under legal
 * hold: a change, for the caller to commit with the user's new status.
 */
export async function resolvingGroupConflicts(env: Env, config: Config, user: string): Promise<Change> {
  const db = database(env.DB);
  const local = localDomain(config);
  const changes: Change[] = [];
  let after: QualifiedId | undefined;
  for (;;) {
    const page = await conversationBook.idsOf(env, { id: user, domain: local }, PAGE, after);
    for (const conv of page.filter((c) => c.domain === local)) {
      const row = await conversationBook.get(env, conv);
      if (row?.type !== 0) continue;
      const members = await conversationBook.members(env, conv);
      const out = await leaversOf(db, members, local);
      if (out.length > 0) changes.push(leave(env, row, members, out));
    }
    if (page.length < PAGE) break;
    after = page.at(-1);
  }
  return joinChanges(...changes);
}
