import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { toBase64 } from '../../../shared/base64.js';
import { isValidSubconvId, subconversationGroupId } from '../../../shared/mls/group-id.js';
import type { AppEnv } from '../../api/app-env.js';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { galleyErrors } from '../../api/errors/galley.js';
import { mlsErrors } from '../../api/errors/mls.js';
import { json, jsonBody } from '../../api/schemas/common.js';
import { self } from '../../api/self.js';
import { database } from '../../db/client.js';
import { requireMember } from '../conversations/access-check.js';
import { utcTime } from '../conversations/conversation-json.js';
import { conversationObject } from '../messaging/conversation-object.js';
import { groupInfoResponse } from './group-info.js';
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

/**
 * The subconversation of a conversation the caller is a member of (404 `no-conversation`; 403
 * `access-denied` for non-members): as stored, or as it is before its first commit. Only regular
 * and 1:1 MLS conversations have them (403 `mls-subconv-unsupported-convtype`).
 */
async function subconversationOf(c: Context<AppEnv>, p: z.infer<typeof params>) {
  if (!isValidSubconvId(p.subconv)) throw new ApiError(galleyErrors.noConversation);
  const conv = { id: p.cnv, domain: p.cnv_domain };
  const { conv: row } = await requireMember(c, conv, galleyErrors.accessDenied);
  if ((row.type !== 0 && row.type !== 2) || row.protocol !== 'mls')
    throw new ApiError(mlsErrors.mlsSubconvUnsupportedConvType);
  const db = database(c.env.DB);
  const stored = await subconversationStore.get(db, conv, p.subconv);
  const groupId = stored?.groupId ?? toBase64(subconversationGroupId(conv, p.subconv));
  return { conv, db, stored, groupId };
}

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
    const { conv, db, stored, groupId } = await subconversationOf(c, p);
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
    errors: [mlsErrors.mlsNotEnabled, galleyErrors.noConversation, mlsErrors.mlsMissingGroupInfo],
    responses: { 200: { description: 'The group information', content: { 'message/mls': { schema: z.string() } } } },
  },
  async (c) => {
    requireMls(c);
    const { db, groupId } = await subconversationOf(c, c.req.valid('param'));
    return groupInfoResponse(db, groupId);
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
    const { conv } = await subconversationOf(c, p);
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
    const { conv } = await subconversationOf(c, p);
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
