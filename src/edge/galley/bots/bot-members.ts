// Bots as conversation members: a bot joins as `wire_admin` naming its service, and leaves on its
// own, by an admin, or when its service disowns it. Its join and leave reach the members and every
// bot of the conversation (the leaving one too).
import { type Config, localDomain } from '../../../shared/config/index.js';
import { memberLeaveData } from '../../../shared/events/member-events.js';
import type { QualifiedId } from '../../api/schemas/common.js';
import type { AccessClaims } from '../../auth/tokens.js';
import { commitChange, joinChanges } from '../../effects/commit-change.js';
import { conversationEvent } from '../../events/conversation-events.js';
import type { ConversationRow, MemberRow } from '../conversations/conversation-store.js';
import { conversationBook } from '../conversations/conversation-book.js';
import { memberJoinData, memberRow, type ServiceRef, serviceOf } from '../conversations/member-data.js';
import { tellMembersEffect } from '../conversations/notify.js';
import { ROLE_ADMIN } from '../conversations/roles.js';
import { membershipChangedEffect } from '../conversations/conversation-object.js';

/** A conversation and its members; undefined when this backend has no such conversation. */
export async function conversationWithMembers(
  env: Env,
  conv: QualifiedId,
): Promise<{ conv: ConversationRow; members: MemberRow[] } | undefined> {
  const row = await conversationBook.get(env, conv);
  return row === undefined ? undefined : { conv: row, members: await conversationBook.members(env, conv) };
}

/** Adds the bot; the `conversation.member-join` event, from the user who added it. */
export async function joinBot(
  env: Env,
  config: Config,
  conv: ConversationRow,
  members: readonly MemberRow[],
  bot: { id: string; service: ServiceRef },
  origin: AccessClaims,
) {
  const row = memberRow(conv, { id: bot.id, domain: conv.domain }, ROLE_ADMIN, Date.now(), bot.service);
  const actor = { id: origin.user, domain: localDomain(config) };
  const joined = conversationEvent('conversation.member-join', conv, actor, memberJoinData([row]), {
    team: conv.team,
  });
  await commitChange(
    env,
    config,
    joinChanges(conversationBook.addMembers(env, [row]), {
      statements: [],
      effects: [membershipChangedEffect(conv), tellMembersEffect(conv, [...members, row], joined, origin)],
    }),
  );
  return joined;
}

/**
 * Removes the bot (`actor`: who removed it, the bot itself when it leaves); the
 * `conversation.member-leave` event, undefined when the bot was not a member.
 */
export async function leaveBot(
  env: Env,
  config: Config,
  conv: QualifiedId,
  bot: string,
  actor: QualifiedId,
  origin?: AccessClaims,
) {
  const found = await conversationWithMembers(env, conv);
  if (found === undefined) return undefined;
  const member = found.members.find((m) => m.userId === bot && m.userDomain === conv.domain);
  if (member === undefined || serviceOf(member) === undefined) return undefined;
  const target = { id: bot, domain: conv.domain };
  const left = conversationEvent('conversation.member-leave', conv, actor, memberLeaveData([target], 'removed'), {
    team: found.conv.team,
  });
  await commitChange(
    env,
    config,
    joinChanges(conversationBook.removeMembers(env, conv, [target]), {
      statements: [],
      effects: [membershipChangedEffect(conv), tellMembersEffect(found.conv, found.members, left, origin)],
    }),
  );
  return left;
}

/** The bots of a service (in the team's conversations, when given), with their conversations. */
export function botsOfService(env: Env, service: ServiceRef, team?: string) {
  return conversationBook.botsOf(env, service, team);
}
