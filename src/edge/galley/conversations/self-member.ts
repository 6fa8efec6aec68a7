import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { galleyErrors } from '../../api/errors/galley.js';
import { json, qualifiedUserId } from '../../api/schemas/common.js';
import { selfQualified } from '../../api/self.js';
import { selfMemberJson } from './conversation-json.js';
import { conversationBook } from './conversation-book.js';
import { convParams, localConvParams, routeConversation } from './read-routes.js';

const member = z
  .object({
    qualified_id: qualifiedUserId,
    id: z.uuid(),
    conversation_role: z.string(),
    service: z.null(),
    status: z.int(),
    status_ref: z.string(),
    status_time: z.string(),
    otr_muted_status: z.int().nullable(),
    otr_muted_ref: z.string().nullable(),
    otr_archived: z.boolean(),
    otr_archived_ref: z.string().nullable(),
    hidden: z.boolean(),
    hidden_ref: z.string().nullable(),
  })
  .openapi('Member');

const selfMemberRoute = {
  method: 'get',
  errors: [galleyErrors.noConversation],
  responses: { 200: { description: 'The caller’s membership, or null', ...json(member.nullable()) } },
} as const;

/**
 * The caller's own membership. As in wire, a local conversation the caller is not in (or that does
 * not exist) answers 200 `null`; a remote one that does not list the caller is 404 `no-conversation`.
 */
async function selfMember(c: Context<AppEnv>) {
  const conv = routeConversation(c);
  const me = selfQualified(c);
  const row = await conversationBook.member(c.env, conv, me);
  if (row !== undefined) return c.json(selfMemberJson(row), 200);
  if (conv.domain !== me.domain) throw new ApiError(galleyErrors.noConversation);
  return c.json(null, 200);
}

export const getSelfMember = endpoint(
  {
    name: 'get-conversation-self',
    path: '/conversations/{cnv_domain}/{cnv}/self',
    from: 9,
    request: { params: convParams },
    ...selfMemberRoute,
  },
  selfMember,
);

export const getSelfMemberUnqualified = endpoint(
  {
    name: 'get-conversation-self-unqualified',
    path: '/conversations/{cnv}/self',
    until: 8,
    request: { params: localConvParams },
    ...selfMemberRoute,
  },
  selfMember,
);
