import { z } from '@hono/zod-openapi';
import { endpoint } from '../../api/endpoint.js';
import { decodePagingState, encodePagingState, isStringPair } from '../../api/paging-state.js';
import { galleyErrors } from '../../api/errors/galley.js';
import { json, jsonBody, type QualifiedId } from '../../api/schemas/common.js';
import { selfQualified } from '../../api/self.js';
import { database } from '../../db/client.js';
import { requireMember } from './access-check.js';
import { conversationJson } from './conversation-json.js';
import { conversationOfOwner, conversationsOfOwners } from '../federation/get-conversations.js';
import { FEDERATED_CALL_ERRORS } from '../../api/errors/federation.js';
import { conversationStore } from './conversation-store.js';
import { mlsEnabled } from '../mls/mls-enabled.js';
import { ensureMlsSelfConversation, mlsSelfConversationId } from '../mls/mls-self-conversation.js';
import { builtInRoles } from './roles.js';

const qualifiedConvId = z.object({ id: z.uuid(), domain: z.string() }).openapi('Qualified_ConvId');
export const convParams = z.object({ cnv_domain: z.string(), cnv: z.uuid() });
/** A conversation's JSON as the viewer sees it (`conversation-json.ts`), named as wire's docs name it. */
export const conversationSchema = z.record(z.string(), z.unknown()).openapi('Conversation');

export const getConversation = endpoint(
  {
    name: 'get-conversation',
    method: 'get',
    path: '/conversations/{cnv_domain}/{cnv}',
    request: { params: convParams },
    errors: [galleyErrors.noConversation, galleyErrors.accessDenied, ...FEDERATED_CALL_ERRORS],
    responses: { 200: { description: 'The conversation', ...json(conversationSchema) } },
  },
  async (c) => {
    const { cnv_domain, cnv } = c.req.valid('param');
    const v = c.get('apiVersion') ?? 0;
    // Another backend's conversation is read from its owner, as it is now (its epoch, its members).
    if (cnv_domain !== selfQualified(c).domain && c.get('config').galley.enableFederation)
      return c.json(await conversationOfOwner(c, { id: cnv, domain: cnv_domain }, v), 200);
    const { conv, members } = await requireMember(c, { id: cnv, domain: cnv_domain }, galleyErrors.accessDenied);
    return c.json(conversationJson(conv, members, selfQualified(c), v), 200);
  },
);

/** Paging state: base64url of the last id returned. */
const encodeState = (q: QualifiedId) => encodePagingState([q.domain, q.id]);
function decodeState(state: string): QualifiedId {
  const [domain, id] = decodePagingState(state, isStringPair, galleyErrors.invalidPagingState);
  return { domain, id };
}

export const listConversationIds = endpoint(
  {
    name: 'list-conversation-ids',
    method: 'post',
    path: '/conversations/list-ids',
    request: jsonBody(
      z
        .object({ size: z.int().min(1).max(1000).default(1000), paging_state: z.string().optional() })
        .openapi('GetPaginated_ConversationIds'),
    ),
    errors: [galleyErrors.invalidPagingState],
    responses: {
      200: {
        description: 'A page of the caller’s conversation ids',
        ...json(
          z
            .object({
              qualified_conversations: z.array(qualifiedConvId),
              has_more: z.boolean(),
              paging_state: z.string(),
            })
            .openapi('ConversationIds_Page'),
        ),
      },
    },
  },
  async (c) => {
    const { size, paging_state } = c.req.valid('json');
    const after = paging_state === undefined ? undefined : decodeState(paging_state);
    const db = database(c.env.DB);
    const me = selfQualified(c);
    // As wire-server's: from v3 the MLS self conversation is made here, so clients find it listed
    // on first load; v1 and v2 clients, which know nothing of it, never see it.
    const listsMlsSelf = (c.get('apiVersion') ?? 0) >= 3;
    if (listsMlsSelf && mlsEnabled(c)) await ensureMlsSelfConversation(db, me);
    const hidden = listsMlsSelf ? undefined : (await mlsSelfConversationId(me)).id;
    const fetched = await conversationStore.idsOf(db, me, size + (hidden === undefined ? 1 : 2), after);
    const ids = fetched.filter((q) => q.id !== hidden);
    const page = ids.slice(0, size);
    const last = page.at(-1) ?? after;
    return c.json(
      {
        qualified_conversations: page,
        has_more: ids.length > size,
        paging_state: last === undefined ? '' : encodeState(last),
      },
      200,
    );
  },
);

export const listConversations = endpoint(
  {
    name: 'list-conversations',
    method: 'post',
    path: '/conversations/list',
    from: 2,
    request: jsonBody(
      z.object({ qualified_ids: z.array(qualifiedConvId).min(1).max(1000) }).openapi('ListConversations'),
    ),
    responses: {
      200: {
        description: 'Conversations found, not found and failed',
        ...json(
          z
            .object({
              found: z.array(conversationSchema),
              not_found: z.array(qualifiedConvId),
              failed: z.array(qualifiedConvId),
            })
            .openapi('ConversationsResponse'),
        ),
      },
    },
  },
  async (c) => {
    const asked = c.req.valid('json').qualified_ids;
    const db = database(c.env.DB);
    const me = selfQualified(c);
    const config = c.get('config');
    // Other backends' conversations are asked of their owners, as they are now.
    const remote = config.galley.enableFederation ? asked.filter((q) => q.domain !== me.domain) : [];
    const owners = await conversationsOfOwners(c, remote, c.get('apiVersion') ?? 0);
    const convs = await conversationStore.getMany(
      db,
      asked.filter((q) => !remote.includes(q)),
    );
    const members = await conversationStore.membersOfMany(db, convs);
    const found = [];
    const key = (q: QualifiedId) => `${q.domain}/${q.id}`;
    const seen = new Set<string>();
    for (const conv of convs) {
      const mine = members.filter((m) => m.convId === conv.id && m.convDomain === conv.domain);
      if (!mine.some((m) => m.userId === me.id && m.userDomain === me.domain)) continue;
      seen.add(key(conv));
      found.push(conversationJson(conv, mine, me, c.get('apiVersion') ?? 0));
    }
    for (const q of [...owners.failed, ...owners.found.map((f) => f.qualified_id)]) seen.add(key(q));
    const notFound = asked.filter((q) => !seen.has(key(q)));
    return c.json({ found: [...found, ...owners.found], not_found: notFound, failed: owners.failed }, 200);
  },
);

/** What the roles routes (of a conversation, of a team) answer. */
export const conversationRolesList = z
  .object({ conversation_roles: z.array(z.object({ conversation_role: z.string(), actions: z.array(z.string()) })) })
  .openapi('ConversationRolesList');

export const getRoles = endpoint(
  {
    name: 'get-conversation-roles',
    method: 'get',
    path: '/conversations/{cnv}/roles',
    request: { params: z.object({ cnv: z.uuid() }) },
    errors: [galleyErrors.noConversation, galleyErrors.accessDenied],
    responses: {
      200: {
        description: 'The roles of the conversation and their actions',
        ...json(conversationRolesList),
      },
    },
  },
  async (c) => {
    await requireMember(
      c,
      { id: c.req.valid('param').cnv, domain: selfQualified(c).domain },
      galleyErrors.accessDenied,
    );
    return c.json({ conversation_roles: builtInRoles() }, 200);
  },
);
