import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { galleyErrors } from '../../api/errors/galley.js';
import { legalholdErrors } from '../../api/errors/legalhold.js';
import {
  FEDERATED_CALL_ERRORS,
  federationErrors,
  nonFederatingBackendsSpec,
  unreachableBackendsSpec,
} from '../../api/errors/federation.js';
import { registerThenCommit, requireFederating } from '../federation/remote-members.js';
import { json, jsonBody, qualifiedUserId, type QualifiedId } from '../../api/schemas/common.js';
import { selfQualified } from '../../api/self.js';
import { database } from '../../db/client.js';
import { commitChange, joinChanges } from '../../effects/commit-change.js';
import { conversationEvent } from '../../events/conversation-events.js';
import { requireAddMembers, requireMember, requireViewer, requireOwnedHere, loadMembershipOf } from './access-check.js';
import { leaveRemoteConversation } from '../federation/leave-conversation.js';
import { guardLegalholdOnJoin } from '../legalhold/join-guard.js';
import { checkInvitees } from './invitees.js';
import type { MemberRow } from './conversation-store.js';
import { conversationBook } from './conversation-book.js';
import { memberJoinData, memberRow } from './member-data.js';
import { tellMembersEffect } from './notify.js';
import { membershipChangedEffect } from './conversation-object.js';
import { convParams, localConvParams, routeConversation } from './read-routes.js';
import { ROLE_ADMIN, ROLE_MEMBER } from './roles.js';
import { deps } from '../../api/deps.js';
import { updateAsCaller } from './updates.js';

const event = z.record(z.string(), z.unknown()).openapi('Event');
const sameUser = (m: MemberRow, u: QualifiedId) => m.userId === u.id && m.userDomain === u.domain;

const inviteQualified = jsonBody(
  z
    .object({ qualified_users: z.array(qualifiedUserId).min(1), conversation_role: z.string().optional() })
    .openapi('InviteQualified'),
);

const addMembersRoute = {
  method: 'post',
  errors: [
    galleyErrors.noConversation,
    galleyErrors.invalidOp,
    galleyErrors.actionDenied,
    galleyErrors.tooManyMembers,
    galleyErrors.accessDenied,
    galleyErrors.noTeamMember,
    galleyErrors.notConnected,
    legalholdErrors.missingConsent,
    federationErrors.disabledForProtocol,
    nonFederatingBackendsSpec,
    unreachableBackendsSpec,
    ...FEDERATED_CALL_ERRORS,
  ],
  responses: {
    200: { description: 'Members added', ...json(event) },
    204: { description: 'Everyone was already a member' },
  },
} as const;

async function addMembersTo(
  c: Context<AppEnv>,
  body: { qualified_users: QualifiedId[]; conversation_role?: string | undefined },
): Promise<Response> {
  const { conv, members, me } = await requireViewer(deps(c), routeConversation(c), selfQualified(c));
  requireOwnedHere(deps(c), conv);
  // A team's channel takes members from the backend even over MLS: they join its group themselves.
  const addType = conv.groupConvType === 'channel' && conv.team !== null ? 'external_add' : 'internal_add';
  if (conv.protocol === 'mls' && addType === 'internal_add') throw new ApiError(galleyErrors.invalidOp);
  const db = database(c.env.DB);
  await requireAddMembers(db, conv, me);
  if (conv.type !== 0) throw new ApiError(galleyErrors.invalidOp);
  const role = body.conversation_role ?? ROLE_ADMIN;
  if (role !== ROLE_ADMIN && role !== ROLE_MEMBER)
    throw new ApiError(galleyErrors.actionDenied, 'Insufficient authorization (missing add_conversation_member)');
  const fresh = body.qualified_users.filter(
    (u, i, all) =>
      !members.some((m) => sameUser(m, u)) && all.findIndex((x) => x.id === u.id && x.domain === u.domain) === i,
  );
  if (fresh.length === 0) return c.body(null, 204);
  if (members.length + fresh.length > c.get('config').galley.settings.maxConvSize)
    throw new ApiError(galleyErrors.tooManyMembers);
  if (!conv.access.includes('invite')) throw new ApiError(galleyErrors.accessDenied);
  const actor = selfQualified(c);
  await checkInvitees(deps(c), conv, actor, fresh, c.get('config').galley.enableFederation);
  const local = (us: readonly QualifiedId[]) => us.filter((u) => u.domain === actor.domain).map((u) => u.id);
  await guardLegalholdOnJoin(db, c.get('config'), {
    present: local(members.map(qualifiedOf)),
    joining: local(fresh),
  });
  await requireFederating(c, conv.protocol, [...members.map(qualifiedOf), ...fresh]);
  const added = fresh.map((u) => memberRow(conv, u, role));
  const joined = conversationEvent('conversation.member-join', conv, actor, memberJoinData(added, addType), {
    team: conv.team,
  });
  const told = [membershipChangedEffect(conv), tellMembersEffect(conv, [...members, ...added], joined, c.get('self'))];
  await registerThenCommit(
    c,
    conv,
    [...members, ...added],
    fresh,
    joinChanges(conversationBook.addMembers(c.env, added), { statements: [], effects: told }),
  );
  return c.json(joined, 200);
}

export const addMembers = endpoint(
  {
    name: 'add-members-to-conversation',
    path: '/conversations/{cnv_domain}/{cnv}/members',
    request: { params: convParams, ...inviteQualified },
    ...addMembersRoute,
  },
  (c) => addMembersTo(c, c.req.valid('json')),
);

export const addMembersUnqualified = endpoint(
  {
    name: 'add-members-to-conversation-unqualified',
    path: '/conversations/{cnv}/members',
    until: 2,
    request: {
      params: localConvParams,
      ...jsonBody(
        z.object({ users: z.array(z.uuid()).min(1), conversation_role: z.string().optional() }).openapi('Invite'),
      ),
    },
    ...addMembersRoute,
  },
  (c) => {
    const { users, conversation_role } = c.req.valid('json');
    const { domain } = selfQualified(c);
    return addMembersTo(c, { qualified_users: users.map((id) => ({ id, domain })), conversation_role });
  },
);

export const addMembersUnqualified2 = endpoint(
  {
    name: 'add-members-to-conversation-unqualified2',
    path: '/conversations/{cnv}/members/v2',
    until: 2,
    request: { params: localConvParams, ...inviteQualified },
    ...addMembersRoute,
  },
  (c) => addMembersTo(c, c.req.valid('json')),
);

const qualifiedOf = (m: MemberRow): QualifiedId => ({ id: m.userId, domain: m.userDomain });

const removeMemberRoute = {
  method: 'delete',
  errors: [galleyErrors.noConversation, galleyErrors.actionDenied, galleyErrors.invalidOp, ...FEDERATED_CALL_ERRORS],
  responses: {
    200: { description: 'Member removed', ...json(event) },
    204: { description: 'The user was not a member' },
  },
} as const;

async function removeFrom(c: Context<AppEnv>, target: QualifiedId): Promise<Response> {
  const v = await loadMembershipOf(deps(c), routeConversation(c), selfQualified(c));
  const actor = selfQualified(c);
  const leaving = target.id === actor.id && target.domain === actor.domain;
  // Leaving a conversation another backend owns has an RPC of its own.
  if (leaving && v.me !== undefined && v.conv.domain !== actor.domain)
    return c.json(await leaveRemoteConversation(c, v.conv, actor), 200);
  const outcome = await updateAsCaller(
    c,
    leaving ? { kind: 'leave' } : { kind: 'remove-members', targets: [target] },
    v,
  );
  return outcome === 'unchanged' ? c.body(null, 204) : c.json(outcome, 200);
}

export const removeMember = endpoint(
  {
    name: 'remove-member',
    path: '/conversations/{cnv_domain}/{cnv}/members/{usr_domain}/{usr}',
    request: { params: convParams.extend({ usr_domain: z.string(), usr: z.uuid() }) },
    ...removeMemberRoute,
  },
  (c) => {
    const { usr_domain, usr } = c.req.valid('param');
    return removeFrom(c, { id: usr, domain: usr_domain });
  },
);

export const removeMemberUnqualified = endpoint(
  {
    name: 'remove-member-unqualified',
    path: '/conversations/{cnv}/members/{usr}',
    until: 2,
    request: { params: localConvParams.extend({ usr: z.uuid() }) },
    ...removeMemberRoute,
  },
  (c) => removeFrom(c, { id: c.req.valid('param').usr, domain: selfQualified(c).domain }),
);

const otherMemberUpdate = jsonBody(
  z.object({ conversation_role: z.string().min(2).max(128) }).openapi('OtherMemberUpdate'),
);
const updateOtherMemberRoute = {
  method: 'put',
  errors: [
    galleyErrors.noConversation,
    galleyErrors.actionDenied,
    galleyErrors.invalidOp,
    galleyErrors.noConversationMember,
  ],
  responses: { 200: { description: 'Role changed' } },
} as const;

async function updateOther(c: Context<AppEnv>, target: QualifiedId, role: string): Promise<Response> {
  await updateAsCaller(c, { kind: 'member-role', target, role });
  return c.body(null, 200);
}

export const updateOtherMember = endpoint(
  {
    name: 'update-other-member',
    path: '/conversations/{cnv_domain}/{cnv}/members/{usr_domain}/{usr}',
    request: { params: convParams.extend({ usr_domain: z.string(), usr: z.uuid() }), ...otherMemberUpdate },
    ...updateOtherMemberRoute,
  },
  (c) => {
    const { usr_domain, usr } = c.req.valid('param');
    return updateOther(c, { id: usr, domain: usr_domain }, c.req.valid('json').conversation_role);
  },
);

export const updateOtherMemberUnqualified = endpoint(
  {
    name: 'update-other-member-unqualified',
    path: '/conversations/{cnv}/members/{usr}',
    until: 7,
    request: { params: localConvParams.extend({ usr: z.uuid() }), ...otherMemberUpdate },
    ...updateOtherMemberRoute,
  },
  (c) =>
    updateOther(
      c,
      { id: c.req.valid('param').usr, domain: selfQualified(c).domain },
      c.req.valid('json').conversation_role,
    ),
);

const memberUpdate = z
  .object({
    otr_muted_status: z.int().nullable().optional(),
    otr_muted_ref: z.string().nullable().optional(),
    otr_archived: z.boolean().optional(),
    otr_archived_ref: z.string().nullable().optional(),
    hidden: z.boolean().optional(),
    hidden_ref: z.string().nullable().optional(),
  })
  .refine((u) => Object.keys(u).length > 0, {
    message: "One of { 'hidden', 'otr_muted_ref', 'otr_archived', ...} required.",
  })
  .openapi('MemberUpdate');
const updateSelfRoute = {
  method: 'put',
  errors: [galleyErrors.noConversation],
  responses: { 200: { description: 'Own membership updated' } },
} as const;

async function updateSelf(c: Context<AppEnv>, body: z.infer<typeof memberUpdate>): Promise<Response> {
  const { conv, me } = await requireMember(deps(c), routeConversation(c), selfQualified(c));
  const actor = selfQualified(c);
  const update = conversationBook.updateMember(c.env, conv, actor, {
    ...(body.otr_muted_status === undefined ? {} : { otrMutedStatus: body.otr_muted_status }),
    ...(body.otr_muted_ref === undefined ? {} : { otrMutedRef: body.otr_muted_ref }),
    ...(body.otr_archived === undefined ? {} : { otrArchived: body.otr_archived }),
    ...(body.otr_archived_ref === undefined ? {} : { otrArchivedRef: body.otr_archived_ref }),
    ...(body.hidden === undefined ? {} : { hidden: body.hidden }),
    ...(body.hidden_ref === undefined ? {} : { hiddenRef: body.hidden_ref }),
  });
  const data = { qualified_target: actor, target: actor.id, ...body };
  const updated = conversationEvent('conversation.member-update', conv, actor, data);
  await commitChange(
    c.env,
    c.get('config'),
    joinChanges(update, { statements: [], effects: [tellMembersEffect(conv, [me], updated, c.get('self'))] }),
  );
  return c.body(null, 200);
}

export const updateSelfMember = endpoint(
  {
    name: 'update-conversation-self',
    path: '/conversations/{cnv_domain}/{cnv}/self',
    request: { params: convParams, ...jsonBody(memberUpdate) },
    ...updateSelfRoute,
  },
  (c) => updateSelf(c, c.req.valid('json')),
);

export const updateSelfMemberUnqualified = endpoint(
  {
    name: 'update-conversation-self-unqualified',
    path: '/conversations/{cnv}/self',
    until: 8,
    request: { params: localConvParams, ...jsonBody(memberUpdate) },
    ...updateSelfRoute,
  },
  (c) => updateSelf(c, c.req.valid('json')),
);
