import { z } from '@hono/zod-openapi';
import { endpoint } from '../../api/endpoint.js';
import { json, type QualifiedId } from '../../api/schemas/common.js';
import { selfQualified } from '../../api/self.js';
import { deps, type Deps } from '../../api/deps.js';
import { type Change, commitChange } from '../../effects/commit-change.js';
import { conversationBook } from './conversation-book.js';
import { conversationJson } from './conversation-json.js';
import { privateConversationRow, type ConversationRow } from './conversation-store.js';
import { memberRow } from './member-data.js';
import { ROLE_ADMIN } from './roles.js';

/**
 * A self conversation of `me` (Proteus or MLS): the stored one, or else `fresh`, stored now with
 * `me` as its only member (admin). `created` tells which.
 */
export async function ensureSelfConversation(d: Deps, fresh: ConversationRow, me: QualifiedId) {
  const existing = await conversationBook.get(d.env, fresh);
  if (existing !== undefined)
    return { created: false, conv: existing, members: await conversationBook.members(d.env, fresh) };
  const members = [memberRow(fresh, me, ROLE_ADMIN)];
  await commitChange(d.env, d.config, conversationBook.create(d.env, fresh, members, d.domain));
  return { created: true, conv: fresh, members };
}

/** A new account's Proteus self conversation (its id is the user's), written in the account's batch. */
export function newSelfConversation(me: QualifiedId): Change {
  const conv = privateConversationRow(me, me.id, 1);
  return conversationBook.createSelf(conv, [memberRow(conv, me, ROLE_ADMIN)]);
}

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
    const self = await ensureSelfConversation(deps(c), privateConversationRow(me, me.id, 1), me);
    const body = conversationJson(self.conv, self.members, me, c.get('apiVersion') ?? 0);
    return self.created ? c.json(body, 201) : c.json(body, 200);
  },
);
