import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import type { QualifiedId } from '../../api/schemas/common.js';
import { database, runBatch } from '../../db/client.js';
import { conversationEvent } from '../../events/conversation-events.js';
import { membershipChanged } from '../messaging/conversation-object.js';
import { announceCreated } from './announce-created.js';
import { conversationStore, type MemberRow, privateConversationRow } from './conversation-store.js';
import { memberJoinData, memberRow } from './member-data.js';
import { notifyMembers } from './notify.js';
import { localOne2OneId } from './one2one-id.js';
import { ROLE_ADMIN } from './roles.js';

const isUser = (u: QualifiedId) => (m: MemberRow) => m.userId === u.id && m.userDomain === u.domain;

/** The 1:1 of two users after an acceptance: its id, and its type (still 3 while the other is not in it). */
export interface AcceptedOne2One {
  id: QualifiedId;
  type: number;
}

/**
 * A user accepts (or unblocks) a connection (wire's acceptOne2One). In the connect conversation
 * (type 3) they join, and its members, they included, hear `conversation.member-join`; with the
 * other user in it, it becomes their 1:1 (type 2). Already both in it, it just becomes the 1:1.
 * Into a 1:1 they left (by blocking) they come back silently. Without any conversation, the 1:1 of
 * both is created and announced to them.
 */
export async function acceptOne2One(
  c: Context<AppEnv>,
  acceptor: QualifiedId,
  other: QualifiedId,
): Promise<AcceptedOne2One> {
  const db = database(c.env.DB);
  const id = { id: localOne2OneId(acceptor.id, other.id), domain: acceptor.domain };
  const conv = await conversationStore.get(db, id);
  if (conv === undefined) {
    const fresh = privateConversationRow(id, other.id, 2);
    const members = [memberRow(fresh, other, ROLE_ADMIN), memberRow(fresh, acceptor, ROLE_ADMIN)];
    await runBatch(db, [
      conversationStore.insert(db, fresh).onConflictDoNothing(),
      ...conversationStore.addMembers(db, members),
    ]);
    await announceCreated(c, fresh, members, acceptor);
    return { id, type: 2 };
  }
  const members = await conversationStore.members(db, id);
  const inIt = members.some(isUser(acceptor));
  if (conv.type === 2) {
    if (!inIt) await join(c, id, [memberRow(conv, acceptor, ROLE_ADMIN)], false);
    return { id, type: 2 };
  }
  if (conv.type !== 3) return { id, type: conv.type };
  if (members.length === 2 && inIt) {
    await runBatch(db, [conversationStore.update(db, id, { type: 2 })]);
    return { id, type: 2 };
  }
  // Two others in it, or more: not a connect conversation one accepts (wire refuses it).
  if (members.length >= 2) return { id, type: 3 };
  // Empty (the requester left it), or the requester's alone, or the acceptor's own (they hear it again).
  const joined = memberRow(conv, acceptor, ROLE_ADMIN);
  const completes = members.length === 1 && !inIt;
  if (!inIt) await join(c, id, [joined], completes);
  const event = conversationEvent('conversation.member-join', conv, acceptor, memberJoinData([joined]));
  await notifyMembers(c, conv, inIt ? members : [...members, joined], event);
  return { id, type: completes ? 2 : 3 };
}

/** Adds members to a 1:1 or connect conversation (and makes it a 1:1 when `completes`). */
async function join(c: Context<AppEnv>, id: QualifiedId, rows: MemberRow[], completes: boolean) {
  const db = database(c.env.DB);
  await runBatch(db, [
    ...conversationStore.addMembers(db, rows),
    ...(completes ? [conversationStore.update(db, id, { type: 2 })] : []),
  ]);
  await membershipChanged(c.env, id);
}

/**
 * A user who blocks a connection, or cancels their request, leaves the two users' 1:1 or connect
 * conversation (wire's blockConv), silently: nobody hears of it, and it stays as it is for the other.
 */
export async function leaveOne2One(c: Context<AppEnv>, user: QualifiedId, other: QualifiedId): Promise<void> {
  const db = database(c.env.DB);
  const id = { id: localOne2OneId(user.id, other.id), domain: user.domain };
  const conv = await conversationStore.get(db, id);
  if (conv === undefined || (conv.type !== 2 && conv.type !== 3)) return;
  if ((await conversationStore.member(db, id, user)) === undefined) return;
  await runBatch(db, conversationStore.removeMembers(db, id, [user]));
  await membershipChanged(c.env, id);
}

/** Creates (201) or finds (200) the 1:1 of two connected users. */
export async function ensureOne2One(c: Context<AppEnv>, me: QualifiedId, other: QualifiedId) {
  const db = database(c.env.DB);
  const id = { id: localOne2OneId(me.id, other.id), domain: me.domain };
  const existing = await conversationStore.get(db, id);
  if (existing !== undefined && existing.type === 2)
    return { created: false, conv: existing, members: await conversationStore.members(db, id) };
  await acceptOne2One(c, me, other);
  const conv = (await conversationStore.get(db, id))!;
  return { created: existing === undefined, conv, members: await conversationStore.members(db, id) };
}
