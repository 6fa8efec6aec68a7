import { z } from '@hono/zod-openapi';
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
import { commitChange } from '../../effects/commit-change.js';
import { conversationEvent } from '../../events/conversation-events.js';
import { requireAction, requireMember, requireOwnedHere } from './access-check.js';
import { leaveRemoteConversation } from '../federation/leave-conversation.js';
import { updateThroughOwner } from '../federation/update-conversation.js';
import { guardLegalholdOnJoin } from '../legalhold/join-guard.js';
import { checkInvitees } from './invitees.js';
import { conversationStore, type MemberRow } from './conversation-store.js';
import { memberJoinData, memberRow } from './member-data.js';
import { memberLeaveData } from '../../../shared/events/member-events.js';
import { membersEventEffect } from './notify.js';
import { membershipChangedEffect } from '../messaging/conversation-object.js';
import { convParams } from './read-routes.js';
import { ROLE_ADMIN, ROLE_MEMBER } from './roles.js';

const event = z.record(z.string(), z.unknown()).openapi('Event');
const sameUser = (m: MemberRow, u: QualifiedId) => m.userId === u.id && m.userDomain === u.domain;

export const addMembers = endpoint(
  {
    name: 'add-members-to-conversation',
    method: 'post',
    path: '/conversations/{cnv_domain}/{cnv}/members',
    request: {
      params: convParams,
      ...jsonBody(
        z
          .object({ qualified_users: z.array(qualifiedUserId).min(1), conversation_role: z.string().optional() })
          .openapi('InviteQualified'),
      ),
    },
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
  },
  async (c) => {
    const { cnv_domain, cnv } = c.req.valid('param');
    const body = c.req.valid('json');
    const { conv, members, me } = await requireMember(c, { id: cnv, domain: cnv_domain });
    requireOwnedHere(c, conv);
    if (conv.protocol === 'mls') throw new ApiError(galleyErrors.invalidOp);
    requireAction(me, 'add_conversation_member');
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
    const db = database(c.env.DB);
    const actor = selfQualified(c);
    await checkInvitees(db, conv, actor, fresh, c.get('config').galley.enableFederation);
    const local = (us: readonly QualifiedId[]) => us.filter((u) => u.domain === actor.domain).map((u) => u.id);
    await guardLegalholdOnJoin(db, c.get('config'), {
      present: local(members.map(qualifiedOf)),
      joining: local(fresh),
    });
    await requireFederating(c, conv.protocol, [...members.map(qualifiedOf), ...fresh]);
    const added = fresh.map((u) => memberRow(conv, u, role));
    const joined = conversationEvent('conversation.member-join', conv, actor, memberJoinData(added), {
      team: conv.team,
    });
    await registerThenCommit(c, conv, [...members, ...added], fresh, {
      statements: conversationStore.addMembers(db, added),
      effects: [membershipChangedEffect(conv), membersEventEffect(c, conv, [...members, ...added], joined)],
    });
    return c.json(joined, 200);
  },
);

const qualifiedOf = (m: MemberRow): QualifiedId => ({ id: m.userId, domain: m.userDomain });

export const removeMember = endpoint(
  {
    name: 'remove-member',
    method: 'delete',
    path: '/conversations/{cnv_domain}/{cnv}/members/{usr_domain}/{usr}',
    request: { params: convParams.extend({ usr_domain: z.string(), usr: z.uuid() }) },
    errors: [galleyErrors.noConversation, galleyErrors.actionDenied, galleyErrors.invalidOp, ...FEDERATED_CALL_ERRORS],
    responses: {
      200: { description: 'Member removed', ...json(event) },
      204: { description: 'The user was not a member' },
    },
  },
  async (c) => {
    const { cnv_domain, cnv, usr_domain, usr } = c.req.valid('param');
    const { conv, members, me } = await requireMember(c, { id: cnv, domain: cnv_domain });
    const actor = selfQualified(c);
    const target = { id: usr, domain: usr_domain };
    const leaving = usr === actor.id && usr_domain === actor.domain;
    if (leaving && conv.domain !== actor.domain) return c.json(await leaveRemoteConversation(c, conv, actor), 200);
    requireAction(me, leaving ? 'leave_conversation' : 'remove_conversation_member');
    if (conv.domain !== actor.domain) {
      const act = { tag: 'ConversationRemoveMembersTag', action: { targets: [target], reason: 'removed' } };
      const data = memberLeaveData([target], 'removed');
      const ev = await updateThroughOwner(c, conv, act, { type: 'conversation.member-leave', data });
      return ev === undefined ? c.body(null, 204) : c.json(ev, 200);
    }
    if (conv.type !== 0) throw new ApiError(galleyErrors.invalidOp);
    if (!members.some((m) => sameUser(m, target))) return c.body(null, 204);
    const left = conversationEvent(
      'conversation.member-leave',
      conv,
      actor,
      { qualified_user_ids: [target], user_ids: [target.id], reason: leaving ? 'left' : 'removed' },
      { team: conv.team },
    );
    await commitChange(c.env, c.get('config'), {
      statements: conversationStore.removeMembers(database(c.env.DB), conv, [target]),
      effects: [membershipChangedEffect(conv, [target]), membersEventEffect(c, conv, members, left)],
    });
    return c.json(left, 200);
  },
);

export const updateOtherMember = endpoint(
  {
    name: 'update-other-member',
    method: 'put',
    path: '/conversations/{cnv_domain}/{cnv}/members/{usr_domain}/{usr}',
    request: {
      params: convParams.extend({ usr_domain: z.string(), usr: z.uuid() }),
      ...jsonBody(z.object({ conversation_role: z.string().min(2).max(128) }).openapi('OtherMemberUpdate')),
    },
    errors: [
      galleyErrors.noConversation,
      galleyErrors.actionDenied,
      galleyErrors.invalidOp,
      galleyErrors.noConversationMember,
    ],
    responses: { 200: { description: 'Role changed' } },
  },
  async (c) => {
    const { cnv_domain, cnv, usr_domain, usr } = c.req.valid('param');
    const { conversation_role } = c.req.valid('json');
    const { conv, members, me } = await requireMember(c, { id: cnv, domain: cnv_domain });
    requireAction(me, 'modify_other_conversation_member');
    const actor = selfQualified(c);
    const target = { id: usr, domain: usr_domain };
    if (conv.domain !== actor.domain) {
      const act = { tag: 'ConversationMemberUpdateTag', action: { target, update: { conversation_role } } };
      const data = { qualified_target: target, target: target.id, conversation_role };
      await updateThroughOwner(c, conv, act, { type: 'conversation.member-update', data });
      return c.body(null, 200);
    }
    if (conv.type !== 0 || (usr === actor.id && usr_domain === actor.domain))
      throw new ApiError(galleyErrors.invalidOp, 'Invalid target');
    if (!members.some((m) => sameUser(m, target))) throw new ApiError(galleyErrors.noConversationMember);
    if (conversation_role !== ROLE_ADMIN && conversation_role !== ROLE_MEMBER)
      throw new ApiError(galleyErrors.invalidOp, 'Unknown role');
    const data = { qualified_target: target, target: target.id, conversation_role };
    const updated = conversationEvent('conversation.member-update', conv, actor, data, { team: conv.team });
    await commitChange(c.env, c.get('config'), {
      statements: [conversationStore.updateMember(database(c.env.DB), conv, target, { role: conversation_role })],
      effects: [membersEventEffect(c, conv, members, updated)],
    });
    return c.body(null, 200);
  },
);

export const updateSelfMember = endpoint(
  {
    name: 'update-conversation-self',
    method: 'put',
    path: '/conversations/{cnv_domain}/{cnv}/self',
    request: {
      params: convParams,
      ...jsonBody(
        z
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
          .openapi('MemberUpdate'),
      ),
    },
    errors: [galleyErrors.noConversation],
    responses: { 200: { description: 'Own membership updated' } },
  },
  async (c) => {
    const { cnv_domain, cnv } = c.req.valid('param');
    const body = c.req.valid('json');
    const { conv, me } = await requireMember(c, { id: cnv, domain: cnv_domain });
    const actor = selfQualified(c);
    const update = conversationStore.updateMember(database(c.env.DB), conv, actor, {
      ...(body.otr_muted_status === undefined ? {} : { otrMutedStatus: body.otr_muted_status }),
      ...(body.otr_muted_ref === undefined ? {} : { otrMutedRef: body.otr_muted_ref }),
      ...(body.otr_archived === undefined ? {} : { otrArchived: body.otr_archived }),
      ...(body.otr_archived_ref === undefined ? {} : { otrArchivedRef: body.otr_archived_ref }),
      ...(body.hidden === undefined ? {} : { hidden: body.hidden }),
      ...(body.hidden_ref === undefined ? {} : { hiddenRef: body.hidden_ref }),
    });
    const data = { qualified_target: actor, target: actor.id, ...body };
    const updated = conversationEvent('conversation.member-update', conv, actor, data);
    await commitChange(c.env, c.get('config'), {
      statements: [update],
      effects: [membersEventEffect(c, conv, [me], updated)],
    });
    return c.body(null, 200);
  },
);
