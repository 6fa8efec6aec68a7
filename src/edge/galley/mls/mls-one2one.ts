import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { FEDERATED_CALL_ERRORS } from '../../api/errors/federation.js';
import { galleyErrors } from '../../api/errors/galley.js';
import { one2OneOfOwner } from '../federation/one2one.js';
import { mlsErrors } from '../../api/errors/mls.js';
import { json, type QualifiedId } from '../../api/schemas/common.js';
import { selfQualified } from '../../api/self.js';
import { conversationJson } from '../conversations/conversation-json.js';
import { conversationBook } from '../conversations/conversation-book.js';
import { memberRow } from '../conversations/member-data.js';
import { MLS_ONE2ONE_NAMESPACE, one2OneConvId } from '../conversations/one2one-id.js';
import { conversationSchema } from '../conversations/read-routes.js';
import { ROLE_MEMBER } from '../conversations/roles.js';
import { teamStore } from '../teams/team-store.js';
import { requireMls } from './mls-enabled.js';
import { mlsPrivateConversationRow } from './mls-conversation-row.js';
import { keyFormatQuery, mlsKeysByPurpose, publicKeysJson } from './public-keys.js';
import { type Deps, deps } from '../../api/deps.js';

const userParams = z.object({ usr_domain: z.string(), usr: z.uuid() });
const otherUser = (p: z.infer<typeof userParams>): QualifiedId => ({ id: p.usr, domain: p.usr_domain });

/** wire-server's `ensureConnectedOrSameTeam` for one user: a member of the caller's team, or connected (403 `not-connected`). */
export async function requireConnectedOrTeammate(d: Deps, me: QualifiedId, other: QualifiedId): Promise<void> {
  const team = other.domain === me.domain ? (await d.users.account(me))?.team : undefined;
  if (team != null && (await teamStore.membersAmong(d.db, team, [other.id])).has(other.id)) return;
  if (!(await d.users.areConnected(me, other))) throw new ApiError(galleyErrors.notConnected);
}

/**
 * The caller's MLS 1:1 with `other`, as wire-server answers it (`getMLSOne2OneConversationV6`):
 * its id derived from both users, the stored conversation once a first commit created it, and until
 * then a view that is not stored: type 1:1, epoch 0, the caller alone as `wire_member`. With it,
 * the removal keys the group's external sender must name. The id may pick the other user's
 * backend as the owner: then the owner is asked (its keys sign the group's removals).
 */
async function mlsOne2One(c: Context<AppEnv>, other: QualifiedId) {
  const keys = requireMls(c);
  const me = selfQualified(c);
  await requireConnectedOrTeammate(deps(c), me, other);
  const id = await one2OneConvId(MLS_ONE2ONE_NAMESPACE, me, other);
  if (id.domain !== me.domain) return one2OneOfOwner(c, other, c.get('apiVersion') ?? 0);
  const stored = await conversationBook.get(c.env, id);
  const conv = stored ?? mlsPrivateConversationRow(id, null, 2);
  const members = stored === undefined ? [memberRow(id, me, ROLE_MEMBER)] : await conversationBook.members(c.env, id);
  return { keys, conversation: conversationJson(conv, members, me, c.get('apiVersion') ?? 0) };
}

const withKeys = z
  .object({ conversation: conversationSchema, public_keys: mlsKeysByPurpose })
  .openapi('MLSOne2OneConversation_SomeKey');
const errors = [
  mlsErrors.mlsNotEnabled,
  galleyErrors.notConnected,
  mlsErrors.mlsFederatedOne2OneNotSupported,
  ...FEDERATED_CALL_ERRORS,
];

/** `GET /conversations/one2one/{usr_domain}/{usr}` in v5: the conversation alone, local users only. */
export const getMlsOne2OneV5 = endpoint(
  {
    name: 'get-one-to-one-mls-conversation@v5',
    method: 'get',
    path: '/conversations/one2one/{usr_domain}/{usr}',
    from: 5,
    until: 6,
    request: { params: userParams },
    errors,
    responses: { 200: { description: 'MLS 1-1 conversation', ...json(conversationSchema) } },
  },
  async (c) => {
    const other = otherUser(c.req.valid('param'));
    if (other.domain !== selfQualified(c).domain) throw new ApiError(mlsErrors.mlsFederatedOne2OneNotSupported);
    return c.json((await mlsOne2One(c, other)).conversation, 200);
  },
);

/** `GET /conversations/one2one/{usr_domain}/{usr}` in v6: the conversation and the raw removal keys. */
export const getMlsOne2OneV6 = endpoint(
  {
    name: 'get-one-to-one-mls-conversation@v6',
    method: 'get',
    path: '/conversations/one2one/{usr_domain}/{usr}',
    from: 6,
    until: 7,
    request: { params: userParams },
    errors,
    responses: { 200: { description: 'MLS 1-1 conversation', ...json(withKeys) } },
  },
  async (c) => {
    const { keys, conversation } = await mlsOne2One(c, otherUser(c.req.valid('param')));
    return c.json({ conversation, public_keys: publicKeysJson(keys, 'raw') }, 200);
  },
);

/** `GET /one2one-conversations/{usr_domain}/{usr}` (v7+): the conversation and the removal keys in `format`. */
export const getMlsOne2One = endpoint(
  {
    name: 'get-one-to-one-mls-conversation',
    method: 'get',
    path: '/one2one-conversations/{usr_domain}/{usr}',
    from: 7,
    request: { params: userParams, query: keyFormatQuery },
    errors,
    responses: { 200: { description: 'MLS 1-1 conversation', ...json(withKeys) } },
  },
  async (c) => {
    const { keys, conversation } = await mlsOne2One(c, otherUser(c.req.valid('param')));
    return c.json({ conversation, public_keys: publicKeysJson(keys, c.req.valid('query').format ?? 'raw') }, 200);
  },
);
