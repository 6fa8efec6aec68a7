import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { galleyErrors } from '../../api/errors/galley.js';
import { mlsErrors } from '../../api/errors/mls.js';
import { json, jsonBody } from '../../api/schemas/common.js';
import type { QualifiedId } from '../../api/schemas/common.js';
import { self, selfQualified } from '../../api/self.js';
import { FEDERATED_CALL_ERRORS } from '../../api/errors/federation.js';
import { groupInfoFor } from '../federation/query-group-info.js';
import { leaveThroughOwner, resetThroughOwner, subconversationThroughOwner } from '../federation/subconversations.js';
import { requireMls } from './mls-enabled.js';
import {
  leaveSubconversationAs,
  publicSubconversation,
  publicSubconversationSchema,
  resetSubconversation,
} from './subconversation-actions.js';
import { deps } from '../../api/deps.js';

const params = z.object({ cnv_domain: z.string(), cnv: z.uuid(), subconv: z.string() });

const ownedHere = (c: Context<AppEnv>, conv: QualifiedId) => conv.domain === deps(c).domain;

/** `GET /conversations/{cnv_domain}/{cnv}/subconversations/{subconv}`. */
export const getSubconversation = endpoint(
  {
    name: 'get-subconversation',
    method: 'get',
    path: '/conversations/{cnv_domain}/{cnv}/subconversations/{subconv}',
    from: 5,
    request: { params },
    errors: [
      galleyErrors.noConversation,
      galleyErrors.accessDenied,
      mlsErrors.mlsSubconvUnsupportedConvType,
      ...FEDERATED_CALL_ERRORS,
    ],
    responses: { 200: { description: 'Subconversation', ...json(publicSubconversationSchema) } },
  },
  async (c) => {
    const p = c.req.valid('param');
    const conv = { id: p.cnv, domain: p.cnv_domain };
    if (!ownedHere(c, conv)) return c.json(await subconversationThroughOwner(c, conv, p.subconv), 200);
    return c.json(await publicSubconversation(c, conv, p.subconv, selfQualified(c)), 200);
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
      ...FEDERATED_CALL_ERRORS,
    ],
    responses: { 200: { description: 'Deletion successful' } },
  },
  async (c) => {
    requireMls(c);
    const p = c.req.valid('param');
    const conv = { id: p.cnv, domain: p.cnv_domain };
    const current = c.req.valid('json');
    if (!ownedHere(c, conv)) await resetThroughOwner(c, conv, p.subconv, current);
    else
      await resetSubconversation(c, conv, p.subconv, selfQualified(c), {
        groupId: current.group_id,
        epoch: current.epoch,
      });
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
      ...FEDERATED_CALL_ERRORS,
    ],
    responses: { 200: { description: 'OK' } },
  },
  async (c) => {
    requireMls(c);
    const p = c.req.valid('param');
    const conv = { id: p.cnv, domain: p.cnv_domain };
    const { client } = self(c);
    if (client === undefined) throw new ApiError(mlsErrors.mlsProtocolError, 'The caller has no client');
    if (!ownedHere(c, conv)) await leaveThroughOwner(c, conv, p.subconv, client);
    else await leaveSubconversationAs(c, conv, p.subconv, { ...selfQualified(c), client });
    return c.body(null, 200);
  },
);
