import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import type { QualifiedId } from '../../api/schemas/common.js';
import { self } from '../../api/self.js';
import { database, runBatch } from '../../db/client.js';
import { conversationEvent } from '../../events/conversation-events.js';
import { publish } from '../../events/publish.js';
import { announceCreated } from './announce-created.js';
import { memberRow } from './member-data.js';
import { conversationStore, privateConversationRow } from './conversation-store.js';
import { memberJoinData } from './member-data.js';
import { notifyMembers } from './notify.js';
import { localOne2OneId } from './one2one-id.js';
import { ROLE_ADMIN } from './roles.js';
import { membershipChanged } from '../messaging/conversation-object.js';

const one2OneRow = (id: string, domain: string, creator: string, type: 2 | 3) =>
  privateConversationRow({ id, domain }, creator, type);

/**
 * A connection request opens the pending 1:1 (type 3, connect) with the requester alone, who
 * gets `conversation.create` and `conversation.connect-request`. Returns its qualified id.
 */
export async function openConnectConversation(
  c: Context<AppEnv>,
  from: QualifiedId,
  to: QualifiedId,
): Promise<QualifiedId> {
  const db = database(c.env.DB);
  const id = { id: localOne2OneId(from.id, to.id), domain: from.domain };
  if ((await conversationStore.get(db, id)) !== undefined) return id;
  const conv = one2OneRow(id.id, id.domain, from.id, 3);
  const members = [memberRow(conv, from, ROLE_ADMIN)];
  await runBatch(db, [
    conversationStore.insert(db, conv).onConflictDoNothing(),
    ...conversationStore.addMembers(db, members),
  ]);
  await announceCreated(c, conv, members, from);
  const request = { qualified_recipient: to, recipient: to.id, message: null, name: null, email: null };
  await publish(
    c.env,
    c.get('config'),
    [{ user: from.id }],
    conversationEvent('conversation.connect-request', conv, from, request),
    {
      origin: self(c),
    },
  );
  return id;
}

/**
 * Accepting a connection turns the connect conversation into the 1:1 (type 2): the acceptor joins
 * and both get `conversation.member-join`. Without a connect conversation, the 1:1 is created.
 */
export async function acceptOne2One(
  c: Context<AppEnv>,
  acceptor: QualifiedId,
  other: QualifiedId,
): Promise<QualifiedId> {
  const db = database(c.env.DB);
  const id = { id: localOne2OneId(acceptor.id, other.id), domain: acceptor.domain };
  const conv = await conversationStore.get(db, id);
  if (conv === undefined) {
    const fresh = one2OneRow(id.id, id.domain, other.id, 2);
    const members = [memberRow(fresh, other, ROLE_ADMIN), memberRow(fresh, acceptor, ROLE_ADMIN)];
    await runBatch(db, [
      conversationStore.insert(db, fresh).onConflictDoNothing(),
      ...conversationStore.addMembers(db, members),
    ]);
    await announceCreated(c, fresh, members, acceptor);
    return id;
  }
  const members = await conversationStore.members(db, id);
  if (members.some((m) => m.userId === acceptor.id)) return id;
  const joined = memberRow(conv, acceptor, ROLE_ADMIN);
  await runBatch(db, [...conversationStore.addMembers(db, [joined]), conversationStore.update(db, id, { type: 2 })]);
  await membershipChanged(c.env, id);
  await notifyMembers(
    c,
    conv,
    [...members, joined],
    conversationEvent('conversation.member-join', conv, acceptor, memberJoinData([joined])),
  );
  return id;
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
