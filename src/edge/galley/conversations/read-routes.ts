import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { endpoint } from '../../api/endpoint.js';
import { decodePagingState, encodePagingState, isStringPair } from '../../api/paging-state.js';
import { galleyErrors } from '../../api/errors/galley.js';
import { json, jsonBody, type QualifiedId } from '../../api/schemas/common.js';
import { selfQualified } from '../../api/self.js';
import { requireMember, requireViewer } from './access-check.js';
import { conversationJson } from './conversation-json.js';
import { conversationOfOwner, conversationsOfOwners } from '../federation/get-conversations.js';
import { FEDERATED_CALL_ERRORS } from '../../api/errors/federation.js';
import { conversationBook } from './conversation-book.js';
import { mlsEnabled } from '../mls/mls-enabled.js';
import { ensureMlsSelfConversation, mlsSelfConversationId } from '../mls/mls-self-conversation.js';
import { builtInRoles } from './roles.js';
import { deps } from '../../api/deps.js';

const qualifiedConvId = z.object({ id: z.uuid(), domain: z.string() }).openapi('Qualified_ConvId');
export const convParams = z.object({ cnv_domain: z.string(), cnv: z.uuid() });
/** Older versions' routes name a conversation by its id alone: one of this backend's. */
export const localConvParams = z.object({ cnv: z.uuid() });

/** The conversation a route names: `{cnv_domain}/{cnv}`, or a bare `{cnv}` (a local one). */
export function routeConversation(c: Context<AppEnv>): QualifiedId {
  const { cnv_domain, cnv } = c.req.param() as { cnv_domain?: string; cnv: string };
  return { id: cnv, domain: cnv_domain ?? selfQualified(c).domain };
}
/** A conversation's JSON as the viewer sees it (`conversation-json.ts`), named as wire's docs name it. */
export const conversationSchema = z.record(z.string(), z.unknown()).openapi('Conversation');

const getConversationRoute = {
  method: 'get',
  errors: [galleyErrors.noConversation, galleyErrors.accessDenied, ...FEDERATED_CALL_ERRORS],
  responses: { 200: { description: 'The conversation', ...json(conversationSchema) } },
} as const;

async function conversationOfRoute(c: Context<AppEnv>) {
  const id = routeConversation(c);
  const v = c.get('apiVersion') ?? 0;
  // Another backend's conversation is read from its owner, as it is now (its epoch, its members).
  if (id.domain !== selfQualified(c).domain && c.get('config').galley.enableFederation)
    return c.json(await conversationOfOwner(c, id, v), 200);
  const { conv, members } = await requireViewer(deps(c), id, selfQualified(c), galleyErrors.accessDenied);
  return c.json(conversationJson(conv, members, selfQualified(c), v), 200);
}

export const getConversation = endpoint(
  {
    name: 'get-conversation',
    path: '/conversations/{cnv_domain}/{cnv}',
    request: { params: convParams },
    ...getConversationRoute,
  },
  conversationOfRoute,
);

export const getConversationUnqualified = endpoint(
  {
    name: 'get-unqualified-conversation',
    path: '/conversations/{cnv}',
    until: 3,
    request: { params: localConvParams },
    ...getConversationRoute,
  },
  conversationOfRoute,
);

/** The same, at the path a legal hold device's token reaches (until v2). */
export const getConversationLegalholdAlias = endpoint(
  {
    name: 'get-unqualified-conversation-legalhold-alias',
    path: '/legalhold/conversations/{cnv}',
    until: 2,
    request: { params: localConvParams },
    ...getConversationRoute,
  },
  conversationOfRoute,
);

const localIdsQuery = z.object({ start: z.uuid().optional() });

export const listConversationIdsUnqualified = endpoint(
  {
    name: 'list-conversation-ids-unqualified',
    method: 'get',
    path: '/conversations/ids',
    until: 3,
    request: { query: localIdsQuery.extend({ size: z.coerce.number().int().min(1).max(1000).default(1000) }) },
    responses: {
      200: {
        description: 'A page of the ids of the caller’s local conversations',
        ...json(
          z.object({ conversations: z.array(z.uuid()), has_more: z.boolean() }).openapi('ConversationList_ConvId'),
        ),
      },
    },
  },
  async (c) => {
    const { start, size } = c.req.valid('query');
    const me = selfQualified(c);
    const ids = await conversationBook.idsIn(c.env, me, me.domain, size + 1, start);
    return c.json({ conversations: ids.slice(0, size), has_more: ids.length > size }, 200);
  },
);

export const getConversationsUnqualified = endpoint(
  {
    name: 'get-conversations',
    method: 'get',
    path: '/conversations',
    until: 3,
    request: {
      query: localIdsQuery.extend({
        ids: z
          .string()
          .transform((s) => s.split(','))
          .pipe(z.array(z.uuid()).min(1).max(32))
          .optional(),
        size: z.coerce.number().int().min(1).max(500).default(32),
      }),
    },
    responses: {
      200: {
        description: 'The caller’s local conversations: those named, or a page of them',
        ...json(
          z.object({ conversations: z.array(conversationSchema), has_more: z.boolean() }).openapi('ConversationList'),
        ),
      },
    },
  },
  async (c) => {
    const { ids, start, size } = c.req.valid('query');
    const me = selfQualified(c);
    // Named ids are one answer; otherwise a page after `start`.
    const page = ids ?? (await conversationBook.idsIn(c.env, me, me.domain, size + 1, start));
    const hasMore = ids === undefined && page.length > size;
    const convs = await conversationBook.getMany(
      c.env,
      page.slice(0, ids === undefined ? size : page.length).map((id) => ({ id, domain: me.domain })),
    );
    const members = await conversationBook.membersOfMany(c.env, convs);
    const v = c.get('apiVersion') ?? 0;
    const mine = convs.flatMap((conv) => {
      const of = members.filter((m) => m.convId === conv.id && m.convDomain === conv.domain);
      return of.some((m) => m.userId === me.id && m.userDomain === me.domain)
        ? [conversationJson(conv, of, me, v)]
        : [];
    });
    return c.json({ conversations: mine, has_more: hasMore }, 200);
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
    const me = selfQualified(c);
    // As wire-server's: from v3 the MLS self conversation is made here, so clients find it listed
    // on first load; v1 and v2 clients, which know nothing of it, never see it.
    const listsMlsSelf = (c.get('apiVersion') ?? 0) >= 3;
    if (listsMlsSelf && mlsEnabled(c)) await ensureMlsSelfConversation(deps(c), me);
    const hidden = listsMlsSelf ? undefined : (await mlsSelfConversationId(me)).id;
    const fetched = await conversationBook.idsOf(c.env, me, size + (hidden === undefined ? 1 : 2), after);
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

const listConversationsRoute = {
  method: 'post',
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
} as const;

async function conversationsNamed(c: Context<AppEnv>, asked: QualifiedId[]) {
  const me = selfQualified(c);
  const config = c.get('config');
  // Other backends' conversations are asked of their owners, as they are now.
  const remote = config.galley.enableFederation ? asked.filter((q) => q.domain !== me.domain) : [];
  const owners = await conversationsOfOwners(c, remote, c.get('apiVersion') ?? 0);
  const convs = await conversationBook.getMany(
    c.env,
    asked.filter((q) => !remote.includes(q)),
  );
  const members = await conversationBook.membersOfMany(c.env, convs);
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
}

export const listConversations = endpoint(
  { name: 'list-conversations', path: '/conversations/list', from: 2, ...listConversationsRoute },
  (c) => conversationsNamed(c, c.req.valid('json').qualified_ids),
);

export const listConversationsV1 = endpoint(
  { name: 'list-conversations@v1', path: '/conversations/list/v2', until: 2, ...listConversationsRoute },
  (c) => conversationsNamed(c, c.req.valid('json').qualified_ids),
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
      deps(c),
      { id: c.req.valid('param').cnv, domain: selfQualified(c).domain },
      selfQualified(c),
      galleyErrors.accessDenied,
    );
    return c.json({ conversation_roles: builtInRoles() }, 200);
  },
);
