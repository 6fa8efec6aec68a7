import type { QualifiedId } from '../../api/schemas/common.js';
import { type Change, noChange, joinChanges } from '../../effects/commit-change.js';
import { conversationEvent } from '../../events/conversation-events.js';
import { membershipChangedEffect } from './conversation-object.js';
import { announceCreatedEffect } from './announce-created.js';
import { type ConversationRow, type MemberRow, privateConversationRow } from './conversation-store.js';
import { conversationBook } from './conversation-book.js';
import { memberRow } from './member-data.js';
import { tellMembersEffect } from './notify.js';
import { localOne2OneId } from './one2one-id.js';
import { ROLE_ADMIN } from './roles.js';
import type { AccessClaims } from '../../auth/tokens.js';
import type { Deps } from '../../api/deps.js';

const isUser = (u: QualifiedId) => (m: MemberRow) => m.userId === u.id && m.userDomain === u.domain;

/** `conversation.connect-request` to the connect conversation's members (the requester). */
function announceRequest(
  by: AccessClaims | undefined,
  conv: ConversationRow,
  members: MemberRow[],
  from: QualifiedId,
  to: QualifiedId,
) {
  const request = { qualified_recipient: to, recipient: to.id, message: null, name: null, email: null };
  return tellMembersEffect(conv, members, conversationEvent('conversation.connect-request', conv, from, request), by);
}

/**
 * A connection request (wire's createConnectConversation): the two users' connect conversation
 * (type 3) holds the requester. A new one is announced to them (`conversation.create`); then the
 * members hear `conversation.connect-request`, again on each request while it stays a connect
 * conversation. A requester who left it (by cancelling or blocking) comes back silently; when the
 * other user is in it already, it becomes their 1:1 (type 2), silently too. Returns its id and the
 * change, for the connection's own commit.
 */
export async function openConnectConversation(
  d: Deps,
  by: AccessClaims | undefined,
  from: QualifiedId,
  to: QualifiedId,
): Promise<{ id: QualifiedId; change: Change }> {
  const id = { id: localOne2OneId(from.id, to.id), domain: from.domain };
  const conv = await conversationBook.get(d.env, id);
  if (conv === undefined) {
    const fresh = privateConversationRow(id, from.id, 3);
    const members = [memberRow(fresh, from, ROLE_ADMIN)];
    const effects = [announceCreatedEffect(by, fresh, members, from), announceRequest(by, fresh, members, from, to)];
    return {
      id,
      change: joinChanges(conversationBook.create(d.env, fresh, members, d.domain), { statements: [], effects }),
    };
  }
  const members = await conversationBook.members(d.env, id);
  if (members.some(isUser(from))) {
    const effects = conv.type === 3 ? [announceRequest(by, conv, members, from, to)] : [];
    return { id, change: { ...noChange(), effects } };
  }
  const joined = memberRow(conv, from, ROLE_ADMIN);
  const completes = conv.type === 3 && members.length === 1;
  const written = joinChanges(
    conversationBook.addMembers(d.env, [joined]),
    completes ? conversationBook.update(d.env, id, { type: 2 }) : noChange(),
  );
  const effects = [membershipChangedEffect(id)];
  if (conv.type === 3 && !completes) effects.push(announceRequest(by, conv, [...members, joined], from, to));
  return { id, change: joinChanges(written, { statements: [], effects }) };
}
