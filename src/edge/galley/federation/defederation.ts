// Conversations when federation with a backend ends (this backend stops federating with it, or a
// backend we federate with tells us it stopped federating with another). Users learn of it through
// federation.delete / federation.connectionRemoved, sent by the caller; no conversation.delete is
// sent for what is cleaned up here.
import { type Config, localDomain } from '../../../shared/config/index.js';
import { memberLeaveData } from '../../../shared/events/member-events.js';
import type { QualifiedId } from '../../api/schemas/common.js';
import { type Change, commitChange, joinChanges } from '../../effects/commit-change.js';
import { conversationEvent } from '../../events/conversation-events.js';
import { conversationBook } from '../conversations/conversation-book.js';
import type { MemberRow } from '../conversations/conversation-store.js';
import { tellMembersEffect } from '../conversations/notify.js';
import { membershipChangedEffect } from '../conversations/conversation-object.js';

const PRIVATE_TYPES = new Set([2, 3]);
const qualified = (m: MemberRow) => ({ id: m.userId, domain: m.userDomain });

/** The local users sharing a conversation with users of any of `domains`, or in one those own. */
export async function localUsersAlongside(env: Env, config: Config, domains: readonly string[]): Promise<string[]> {
  const local = localDomain(config);
  const convs: QualifiedId[] = [];
  for (const domain of domains)
    convs.push(
      ...(await conversationBook.withMembersFrom(env, domain)),
      ...(await conversationBook.ownedBy(env, domain)),
    );
  if (convs.length === 0) return [];
  const members = await conversationBook.membersOfMany(env, convs);
  return [...new Set(members.filter((m) => m.userDomain === local).map((m) => m.userId))];
}

/**
 * The users of `gone` leave a conversation owned here: a 1:1 or connect conversation goes with
 * them; a group tells its remaining members (and `alsoTell`'s backends) with `member-leave`.
 */
async function removeFrom(
  env: Env,
  config: Config,
  id: QualifiedId,
  gone: (m: MemberRow) => boolean,
  alsoTell: (m: MemberRow) => boolean = () => false,
): Promise<void> {
  const conv = await conversationBook.get(env, id);
  if (conv === undefined) return;
  const members = await conversationBook.members(env, id);
  const leaving = members.filter(gone).map(qualified);
  if (leaving.length === 0) return;
  if (PRIVATE_TYPES.has(conv.type)) return commitChange(env, config, conversationGone(env, id, members));
  const data = memberLeaveData(leaving, 'removed');
  const event = conversationEvent('conversation.member-leave', conv, leaving[0]!, data, { team: conv.team });
  const told = members.filter((m) => !gone(m) || alsoTell(m));
  await commitChange(
    env,
    config,
    joinChanges(conversationBook.removeMembers(env, id, leaving), {
      statements: [],
      effects: [membershipChangedEffect(id, leaving), tellMembersEffect(conv, told, event)],
    }),
  );
}

const conversationGone = (env: Env, id: QualifiedId, members: readonly MemberRow[]): Change =>
  joinChanges(conversationBook.remove(env, id, members), { statements: [], effects: [membershipChangedEffect(id)] });

/**
 * This backend no longer federates with `domain`: its users leave the conversations owned here,
 * and the copies of conversations it owns are dropped.
 */
export async function forgetConversationsWith(env: Env, config: Config, domain: string): Promise<void> {
  const local = localDomain(config);
  for (const id of await conversationBook.withMembersFrom(env, domain, local))
    await removeFrom(env, config, id, (m) => m.userDomain === domain);
  for (const id of await conversationBook.ownedBy(env, domain))
    await commitChange(env, config, conversationGone(env, id, await conversationBook.members(env, id)));
}

/**
 * Two backends this one federates with no longer federate with each other: their users leave
 * every conversation owned here that has users of both. Both are still told, so their copies follow.
 */
export async function separateInConversations(env: Env, config: Config, pair: [string, string]) {
  const local = localDomain(config);
  const withSecond = new Set(
    (await conversationBook.withMembersFrom(env, pair[1], local)).map((c) => `${c.domain}/${c.id}`),
  );
  const either = (m: MemberRow) => m.userDomain === pair[0] || m.userDomain === pair[1];
  for (const id of await conversationBook.withMembersFrom(env, pair[0], local))
    if (withSecond.has(`${id.domain}/${id.id}`)) await removeFrom(env, config, id, either, either);
}
