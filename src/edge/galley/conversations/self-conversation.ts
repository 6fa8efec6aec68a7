import { z } from '@hono/zod-openapi';
import { endpoint } from '../../api/endpoint.js';
import { json, type QualifiedId } from '../../api/schemas/common.js';
import { selfQualified } from '../../api/self.js';
import { database, runBatch, type Db } from '../../db/client.js';
import { conversationJson } from './conversation-json.js';
import { conversationStore, privateConversationRow, type ConversationRow } from './conversation-store.js';
import { memberRow } from './member-data.js';
import { ROLE_ADMIN } from './roles.js';

const selfStatements = (db: Db, conv: ConversationRow, me: QualifiedId) =>
  [
    conversationStore.insert(db, conv).onConflictDoNothing(),
    ...conversationStore.addMembers(db, [memberRow(conv, me, ROLE_ADMIN)]),
  ] as const;

/**
 * A self conversation of `me` (Proteus or MLS): the stored one, or else `fresh`, stored now with
 * `me` as its only member (admin). `created` tells which.
 */
export async function ensureSelfConversation(db: Db, fresh: ConversationRow, me: QualifiedId) {
  const existing = await conversationStore.get(db, fresh);
  if (existing !== undefined)
    return { created: false, conv: existing, members: await conversationStore.members(db, fresh) };
  await runBatch(db, [...selfStatements(db, fresh, me)]);
  return { created: true, conv: fresh, members: [memberRow(fresh, me, ROLE_ADMIN)] };
}

/** A new account's Proteus self conversation (its id is the user's), written in the account's batch. */
export const newSelfConversation = (db: Db, me: QualifiedId) =>
  selfStatements(db, privateConversationRow(me, me.id, 1), me);

/** `POST /conversations/self`: the user's private conversation, whose id is the user id. */
export const createSelfConversation = endpoint(
  {
    name: 'create-self-conversation',
    method: 'post',
    path: '/conversations/self',
    responses: {
      200: { description: 'The self conversation existed', ...json(z.record(z.string(), z.unknown())) },
      201: { description: 'The self conversation was created', ...json(z.record(z.string(), z.unknown())) },
    },
  },
  async (c) => {
    const me = selfQualified(c);
    c.header('location', me.id);
    const self = await ensureSelfConversation(database(c.env.DB), privateConversationRow(me, me.id, 1), me);
    const body = conversationJson(self.conv, self.members, me, c.get('apiVersion') ?? 0);
    return self.created ? c.json(body, 201) : c.json(body, 200);
  },
);
