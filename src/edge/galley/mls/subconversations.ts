import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { galleyErrors } from '../../api/errors/galley.js';
import { mlsErrors } from '../../api/errors/mls.js';
import { json, jsonBody } from '../../api/schemas/common.js';
import { self, selfQualified } from '../../api/self.js';
import { utcTime } from '../conversations/conversation-json.js';
import { conversationObject } from '../messaging/conversation-object.js';
import { FEDERATED_CALL_ERRORS } from '../../api/errors/federation.js';
import { groupInfoFor } from '../federation/query-group-info.js';
import { subconversationOf } from './member-group.js';
import { resetBy } from './reset-conversation.js';
import { refusalError } from './mls-failure.js';
import { requireMls } from './mls-enabled.js';
import { subconversationStore } from './subconversation-store.js';

const params = z.object({ cnv_domain: z.string(), cnv: z.uuid(), subconv: z.string() });
const qid = z.object({ id: z.string(), domain: z.string() });
const subconversation = z
  .object({
    parent_qualified_id: qid,
    subconv_id: z.string(),
    group_id: z.string(),
    epoch: z.int(),
    epoch_timestamp: z.string().optional(),
    cipher_suite: z.int().optional(),
    members: z.array(z.object({ domain: z.string(), user_id: z.string(), client_id: z.string() })),
  })
  .openapi('PublicSubConversation');

/** The subconversation the path names, for the caller. */
const subconversationAt = (c: Context<AppEnv>, p: z.infer<typeof params>) =>
  subconversationOf(c, { id: p.cnv, domain: p.cnv_domain }, p.subconv, selfQualified(c));

/** `GET /conversations/{cnv_domain}/{cnv}/subconversations/{subconv}`. */
export const getSubconversation = endpoint(
  {
    name: 'get-subconversation',
    method: 'get',
    path: '/conversations/{cnv_domain}/{cnv}/subconversations/{subconv}',
    from: 5,
    request: { params },
    errors: [galleyErrors.noConversation, galleyErrors.accessDenied, mlsErrors.mlsSubconvUnsupportedConvType],
    responses: { 200: { description: 'Subconversation', ...json(subconversation) } },
  },
  async (c) => {
    const p = c.req.valid('param');
    const { conv, db, stored, groupId } = await subconversationAt(c, p);
    const members = stored === undefined ? [] : await subconversationStore.clients(db, groupId);
    const moved = stored?.epochTimestamp != null && stored.cipherSuite !== null;
    return c.json(
      {
        parent_qualified_id: conv,
        subconv_id: p.subconv,
        group_id: groupId,
        epoch: stored?.epoch ?? 0,
        ...(moved ? { epoch_timestamp: utcTime(stored.epochTimestamp!), cipher_suite: stored.cipherSuite! } : {}),
        members: members.map((m) => ({ domain: m.domain, user_id: m.user, client_id: m.client })),
      },
      200,
    );
  },
);

/** `GET …/subconversations/{subconv}/groupinfo`: the GroupInfo of its current epoch. */
export const getSubconversationGroupInfo = endpoint(
  {
    name: 'get-subconversation-group-info',
    method: 'get',
    path: '/conversations/{cnv_domain}/{cnv}/subconversations/{subconv}/groupinfo',
    from: 5,
    request: { params },
    errors: [
      mlsErrors.mlsNotEnabled,
      galleyErrors.noConversation,
      galleyErrors.accessDenied,
      mlsErrors.mlsMissingGroupInfo,
      mlsErrors.mlsSubconvUnsupportedConvType,
      ...FEDERATED_CALL_ERRORS,
    ],
    responses: { 200: { description: 'The group information', content: { 'message/mls': { schema: z.string() } } } },
  },
  async (c) => {
    requireMls(c);
    const p = c.req.valid('param');
    return groupInfoFor(c, { id: p.cnv, domain: p.cnv_domain }, p.subconv);
  },
);

/** `DELETE …/subconversations/{subconv}`: resets it, given its current group id and epoch. */
export const deleteSubconversation = endpoint(
  {
    name: 'delete-subconversation',
    method: 'delete',
    path: '/conversations/{cnv_domain}/{cnv}/subconversations/{subconv}',
    from: 5,
    request: {
      params,
      ...jsonBody(z.object({ group_id: z.string(), epoch: z.int().min(0) }).openapi('DeleteSubConversationRequest')),
    },
    errors: [
      mlsErrors.mlsNotEnabled,
      galleyErrors.noConversation,
      galleyErrors.accessDenied,
      mlsErrors.mlsStaleMessage,
    ],
    responses: { 200: { description: 'Deletion successful' } },
  },
  async (c) => {
    requireMls(c);
    const p = c.req.valid('param');
    const { conv } = await subconversationAt(c, p);
    const { group_id, epoch } = c.req.valid('json');
    const result = await conversationObject(c.env, conv).resetGroup({
      conv,
      subconv: p.subconv,
      groupId: group_id,
      epoch,
      ...resetBy(c),
    });
    if ('refusal' in result) throw refusalError(result.refusal, result.message);
    return c.body(null, 200);
  },
);

/** `DELETE …/subconversations/{subconv}/self`: the caller's client leaves it. */
export const leaveSubconversation = endpoint(
  {
    name: 'leave-subconversation',
    method: 'delete',
    path: '/conversations/{cnv_domain}/{cnv}/subconversations/{subconv}/self',
    from: 5,
    request: { params },
    errors: [
      mlsErrors.mlsNotEnabled,
      mlsErrors.mlsProtocolError,
      galleyErrors.noConversation,
      galleyErrors.accessDenied,
    ],
    responses: { 200: { description: 'OK' } },
  },
  async (c) => {
    requireMls(c);
    const p = c.req.valid('param');
    const { conv } = await subconversationAt(c, p);
    const me = self(c);
    const config = c.get('config');
    const domain = config.brig.optSettings.setFederationDomain;
    if (me.client === undefined) throw new ApiError(mlsErrors.mlsProtocolError, 'The caller has no client');
    const result = await conversationObject(c.env, conv).leaveSubconversation({
      conv,
      subconv: p.subconv,
      targets: [{ user: me.user, domain, client: me.client }],
      localDomain: domain,
      ttlSeconds: config.gundeck.settings.notificationTTL,
    });
    if ('refusal' in result) throw refusalError(result.refusal, result.message);
    return c.body(null, 200);
  },
);
