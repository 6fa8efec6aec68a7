import type { QualifiedId } from '../../api/schemas/common.js';
import { type Change, commitChange, joinChanges, noChange } from '../../effects/commit-change.js';
import { conversationEvent } from '../../events/conversation-events.js';
import { membershipChangedEffect } from './conversation-object.js';
import { announceCreatedEffect } from './announce-created.js';
import { type MemberRow, privateConversationRow } from './conversation-store.js';
import { conversationBook } from './conversation-book.js';
import { memberJoinData, memberRow } from './member-data.js';
import { tellMembersEffect } from './notify.js';
import { localOne2OneId } from './one2one-id.js';
import { ROLE_ADMIN } from './roles.js';
import type { Deps } from '../../api/deps.js';
import type { AccessClaims } from '../../auth/tokens.js';

const isUser = (u: QualifiedId) => (m: MemberRow) => m.userId === u.id && m.userDomain === u.domain;

/** The 1:1 of two users after an acceptance: its id, its type (still 3 while the other is not in it), and the change. */
export interface AcceptedOne2One {
  id: QualifiedId;
  type: number;
  change: Change;
}

/**
 * A user accepts (or unblocks) a connection (wire's acceptOne2One). In the connect conversation
 * (type 3) they join, and its members, they included, hear `conversation.member-join`; with the
 * other user in it, it becomes their 1:1 (type 2). Already both in it, it just becomes the 1:1.
 * Into a 1:1 they left (by blocking) they come back silently. Without any conversation, the 1:1 of
 * both is created and announced to them. The change is the caller's to commit.
 */
export async function acceptOne2One(
  d: Deps,
  by: AccessClaims | undefined,
  acceptor: QualifiedId,
  other: QualifiedId,
): Promise<AcceptedOne2One> {
  const id = { id: localOne2OneId(acceptor.id, other.id), domain: acceptor.domain };
  const conv = await conversationBook.get(d.env, id);
  if (conv === undefined) {
    const fresh = privateConversationRow(id, other.id, 2);
    const members = [memberRow(fresh, other, ROLE_ADMIN), memberRow(fresh, acceptor, ROLE_ADMIN)];
    const announced = { statements: [], effects: [announceCreatedEffect(by, fresh, members, acceptor)] };
    return { id, type: 2, change: joinChanges(conversationBook.create(d.env, fresh, members, d.domain), announced) };
  }
  const members = await conversationBook.members(d.env, id);
  const inIt = members.some(isUser(acceptor));
  if (conv.type === 2)
    return { id, type: 2, change: inIt ? noChange() : join(d.env, id, [memberRow(conv, acceptor, ROLE_ADMIN)], false) };
  if (conv.type !== 3) return { id, type: conv.type, change: noChange() };
  if (members.length === 2 && inIt) return { id, type: 2, change: conversationBook.update(d.env, id, { type: 2 }) };
  // Two others in it, or more: not a connect conversation one accepts (wire refuses it).
  if (members.length >= 2) return { id, type: 3, change: noChange() };
  // Empty (the requester left it), or the requester's alone, or the acceptor's own (they hear it again).
  const joined = memberRow(conv, acceptor, ROLE_ADMIN);
  const completes = members.length === 1 && !inIt;
  const event = conversationEvent('conversation.member-join', conv, acceptor, memberJoinData([joined]));
  const told = tellMembersEffect(conv, inIt ? members : [...members, joined], event, by);
  const joining = inIt ? noChange() : join(d.env, id, [joined], completes);
  return { id, type: completes ? 2 : 3, change: joinChanges(joining, { statements: [], effects: [told] }) };
}

/** Adds members to a 1:1 or connect conversation (and makes it a 1:1 when `completes`). */
function join(env: Env, id: QualifiedId, rows: MemberRow[], completes: boolean): Change {
  return joinChanges(
    conversationBook.addMembers(env, rows),
    completes ? conversationBook.update(env, id, { type: 2 }) : noChange(),
    { statements: [], effects: [membershipChangedEffect(id)] },
  );
}

/**
 * A user who blocks a connection, or cancels their request, leaves the two users' 1:1 or connect
 * conversation (wire's blockConv), silently: nobody hears of it, and it stays as it is for the other.
 * The change is the caller's to commit.
 */
export async function leaveOne2One(d: Deps, user: QualifiedId, other: QualifiedId): Promise<Change> {
  const id = { id: localOne2OneId(user.id, other.id), domain: user.domain };
  const conv = await conversationBook.get(d.env, id);
  if (conv === undefined || (conv.type !== 2 && conv.type !== 3)) return noChange();
  if ((await conversationBook.member(d.env, id, user)) === undefined) return noChange();
  return joinChanges(conversationBook.removeMembers(d.env, id, [user]), {
    statements: [],
    effects: [membershipChangedEffect(id)],
  });
}

/** Creates (201) or finds (200) the 1:1 of two connected users. */
export async function ensureOne2One(d: Deps, by: AccessClaims | undefined, me: QualifiedId, other: QualifiedId) {
  const id = { id: localOne2OneId(me.id, other.id), domain: me.domain };
  const existing = await conversationBook.get(d.env, id);
  if (existing !== undefined && existing.type === 2)
    return { created: false, conv: existing, members: await conversationBook.members(d.env, id) };
  await commitChange(d.env, d.config, (await acceptOne2One(d, by, me, other)).change);
  const conv = (await conversationBook.get(d.env, id))!;
  return { created: existing === undefined, conv, members: await conversationBook.members(d.env, id) };
}
