import { z } from '@hono/zod-openapi';
import { endpoint } from '../../api/endpoint.js';
import { json } from '../../api/schemas/common.js';
import { selfQualified } from '../../api/self.js';
import { database, runBatch } from '../../db/client.js';
import { conversationJson } from './conversation-json.js';
import { conversationStore, privateConversationRow } from './conversation-store.js';
import { memberRow } from './member-data.js';
import { ROLE_ADMIN } from './roles.js';

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
    const db = database(c.env.DB);
    const me = selfQualified(c);
    const version = c.get('apiVersion') ?? 0;
    c.header('location', me.id);
    const existing = await conversationStore.get(db, me);
    if (existing !== undefined)
      return c.json(conversationJson(existing, await conversationStore.members(db, me), me, version), 200);
    const conv = privateConversationRow(me, me.id, 1);
    const members = [memberRow(conv, me, ROLE_ADMIN)];
    await runBatch(db, [
      conversationStore.insert(db, conv).onConflictDoNothing(),
      ...conversationStore.addMembers(db, members),
    ]);
    return c.json(conversationJson(conv, members, me, version), 201);
  },
);
