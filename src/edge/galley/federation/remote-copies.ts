// The copies this backend keeps of conversations other backends own: made or refreshed whenever
// the owner registers the conversation here, dropped once no local user is in it (the owner then
// stops telling this backend of changes, so the copy would go stale).
import type { QualifiedId } from '../../api/schemas/common.js';
import { type Change, joinChanges } from '../../effects/commit-change.js';
import { conversationBook } from '../conversations/conversation-book.js';
import type { ConversationRow, MemberRow } from '../conversations/conversation-store.js';

const key = (m: { userDomain: string; userId: string }) => `${m.userDomain}/${m.userId}`;

/**
 * The writes of the owner's view of a conversation: a new copy, or the existing one brought up to
 * date (members' own settings kept); and the members who were not in the copy before.
 */
export async function saveCopy(
  env: Env,
  here: string,
  conv: ConversationRow,
  members: readonly MemberRow[],
): Promise<{ fresh: MemberRow[]; change: Change }> {
  const existing = await conversationBook.get(env, conv);
  if (existing === undefined)
    return { fresh: [...members], change: conversationBook.create(env, conv, [...members], here) };
  const before = new Map((await conversationBook.members(env, conv)).map((m) => [key(m), m]));
  const listed = new Set(members.map(key));
  const gone = [...before.values()].filter((m) => !listed.has(key(m)));
  const fresh = members.filter((m) => !before.has(key(m)));
  const recast = members.filter((m) => before.has(key(m)) && before.get(key(m))!.role !== m.role);
  const { domain: _d, id: _i, createdAt: _c, ...metadata } = conv;
  const change = joinChanges(
    conversationBook.update(env, conv, metadata),
    conversationBook.removeMembers(
      env,
      conv,
      gone.map((m) => ({ id: m.userId, domain: m.userDomain })),
    ),
    conversationBook.addMembers(env, fresh),
    ...recast.map((m) =>
      conversationBook.updateMember(env, conv, { id: m.userId, domain: m.userDomain }, { role: m.role }),
    ),
  );
  return { fresh, change };
}

/** The writes of `leaving` leaving a copy: the whole copy when none of this backend's users is left in it. */
export async function leaveCopy(
  env: Env,
  conv: QualifiedId,
  leaving: readonly QualifiedId[],
  local: string,
): Promise<Change> {
  const before = await conversationBook.members(env, conv);
  const gone = new Set(leaving.map((u) => key({ userDomain: u.domain, userId: u.id })));
  const remaining = before.filter((m) => !gone.has(key(m)));
  return remaining.some((m) => m.userDomain === local)
    ? conversationBook.removeMembers(env, conv, leaving)
    : conversationBook.remove(env, conv, before);
}

/** The local users of a copy (who may receive what its owner sends here); empty without a copy. */
export async function localUsersOfCopy(env: Env, conv: QualifiedId, local: string): Promise<Set<string>> {
  const members = await conversationBook.members(env, conv);
  return new Set(members.filter((m) => m.userDomain === local).map((m) => m.userId));
}
