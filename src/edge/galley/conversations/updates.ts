import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { galleyErrors } from '../../api/errors/galley.js';
import { FEDERATED_CALL_ERRORS } from '../../api/errors/federation.js';
import { json, jsonBody } from '../../api/schemas/common.js';
import { selfQualified } from '../../api/self.js';
import { database } from '../../db/client.js';
import { conversationEvent, type ConversationEventType } from '../../events/conversation-events.js';
import {
  access,
  accessRole,
  accessRoleLegacy,
  addPermission,
  fromLegacyAccessRole,
  toLegacyAccessRole,
  type AccessRole,
} from './access.js';
import { requireAction, requireChannelAction, requireMember, requireViewer, type Viewing } from './access-check.js';
import { conversationStore, type ConversationRow } from './conversation-store.js';
import { membersEventEffect } from './notify.js';
import { commitChange, type Change } from '../../effects/commit-change.js';
import { membershipChangedEffect } from '../messaging/conversation-object.js';
import { convParams, localConvParams, routeConversation } from './read-routes.js';
import type { ConversationAction } from './roles.js';
import { kickDisallowedMembers } from './access-effects.js';
import { requireOpeningAllowed } from './channel-permissions.js';
import { actionOfEvent } from '../federation/conversation-actions.js';
import { updateThroughOwner } from '../federation/update-conversation.js';
import { typingInOwned, typingThroughOwner } from '../federation/typing.js';

const event = z.record(z.string(), z.unknown()).openapi('Event');
export const changed = { 200: { description: 'Updated', ...json(event) }, 204: { description: 'Nothing changed' } };
const commonErrors = [galleyErrors.noConversation, galleyErrors.actionDenied, galleyErrors.invalidOp];

/** The shared path of metadata changes: membership, the role's action, then the change and its event. */
export async function change(
  c: Context<AppEnv>,
  action: ConversationAction,
  o: {
    groupOnly: boolean;
    /**
     * Admins of a channel's team act whatever their conversation role (wire's ManageChannels);
     * `outside`: also when they are not in the channel.
     */
    channelManagers?: 'inside' | 'outside';
    /** More of the same change, after its event (members an access change removes). */
    alongside?: (m: Viewing) => Promise<Change>;
    /** The conversation's object must read it again (a protocol change). */
    reload?: boolean;
  },
  apply: (
    m: Viewing,
  ) => Promise<{ type: ConversationEventType; data: unknown; patch: Partial<ConversationRow> } | 'unchanged'>,
): Promise<Response> {
  const m = await actorOf(c, action, o.channelManagers);
  if (o.groupOnly && m.conv.type !== 0) throw new ApiError(galleyErrors.invalidOp);
  const outcome = await apply(m);
  if (outcome === 'unchanged') return c.body(null, 204);
  if (m.conv.domain !== c.get('config').brig.optSettings.setFederationDomain) {
    // Another backend owns it: the owner checks and makes the change.
    const act = actionOfEvent({ ...outcome, qualified_from: selfQualified(c) });
    if (act === undefined) throw new ApiError(galleyErrors.invalidOp);
    const ev = await updateThroughOwner(c, m.conv, act, outcome);
    return ev === undefined ? c.body(null, 204) : c.json(ev, 200);
  }
  const ev = conversationEvent(outcome.type, m.conv, selfQualified(c), outcome.data, { team: m.conv.team });
  const more = (await o.alongside?.(m)) ?? { statements: [], effects: [] };
  await commitChange(c.env, c.get('config'), {
    statements: [conversationStore.update(database(c.env.DB), m.conv, outcome.patch), ...more.statements],
    effects: [
      ...(o.reload === true ? [membershipChangedEffect(m.conv)] : []),
      membersEventEffect(c, m.conv, m.members, ev),
      ...more.effects,
    ],
  });
  return c.json(ev, 200);
}

/** The conversation of the route, once the caller may take `action` in it. */
async function actorOf(
  c: Context<AppEnv>,
  action: ConversationAction,
  channelManagers: 'inside' | 'outside' | undefined,
): Promise<Viewing> {
  const id = routeConversation(c);
  if (channelManagers === undefined) {
    const m = await requireMember(c, id);
    requireAction(m.me, action);
    return m;
  }
  const m = channelManagers === 'outside' ? await requireViewer(c, id) : await requireMember(c, id);
  await requireChannelAction(c, m, action);
  return m;
}

const renameBody = jsonBody(z.object({ name: z.string().min(1).max(256) }).openapi('ConversationRename'));
const renameRoute = { method: 'put', errors: commonErrors, responses: changed } as const;
const rename = (c: Context<AppEnv>, name: string) =>
  change(c, 'modify_conversation_name', { groupOnly: false, channelManagers: 'outside' }, async () => ({
    type: 'conversation.rename',
    data: { name },
    patch: { name },
  }));

export const renameConversation = endpoint(
  {
    name: 'update-conversation-name',
    path: '/conversations/{cnv_domain}/{cnv}/name',
    request: { params: convParams, ...renameBody },
    ...renameRoute,
  },
  (c) => rename(c, c.req.valid('json').name),
);

export const renameConversationUnqualified = endpoint(
  {
    name: 'update-conversation-name-unqualified',
    path: '/conversations/{cnv}/name',
    until: 8,
    request: { params: localConvParams, ...renameBody },
    ...renameRoute,
  },
  (c) => rename(c, c.req.valid('json').name),
);

export const renameConversationDeprecated = endpoint(
  {
    name: 'update-conversation-name-deprecated',
    path: '/conversations/{cnv}',
    until: 8,
    request: { params: localConvParams, ...renameBody },
    ...renameRoute,
  },
  (c) => rename(c, c.req.valid('json').name),
);

const messageTimerBody = jsonBody(
  z.object({ message_timer: z.int().min(0).nullable() }).openapi('ConversationMessageTimerUpdate'),
);
const messageTimerRoute = { method: 'put', errors: commonErrors, responses: changed } as const;
const setMessageTimer = (c: Context<AppEnv>, message_timer: number | null) =>
  change(c, 'modify_conversation_message_timer', { groupOnly: true, channelManagers: 'inside' }, async ({ conv }) =>
    conv.messageTimer === message_timer
      ? 'unchanged'
      : {
          type: 'conversation.message-timer-update',
          data: { message_timer },
          patch: { messageTimer: message_timer },
        },
  );

export const updateMessageTimer = endpoint(
  {
    name: 'update-conversation-message-timer',
    path: '/conversations/{cnv_domain}/{cnv}/message-timer',
    request: { params: convParams, ...messageTimerBody },
    ...messageTimerRoute,
  },
  (c) => setMessageTimer(c, c.req.valid('json').message_timer),
);

export const updateMessageTimerUnqualified = endpoint(
  {
    name: 'update-conversation-message-timer-unqualified',
    path: '/conversations/{cnv}/message-timer',
    until: 8,
    request: { params: localConvParams, ...messageTimerBody },
    ...messageTimerRoute,
  },
  (c) => setMessageTimer(c, c.req.valid('json').message_timer),
);

const receiptModeBody = jsonBody(z.object({ receipt_mode: z.int() }).openapi('ConversationReceiptModeUpdate'));
const receiptModeRoute = {
  method: 'put',
  errors: [galleyErrors.mlsReceiptsNotAllowed, ...commonErrors],
  responses: changed,
} as const;
const setReceiptMode = (c: Context<AppEnv>, receipt_mode: number) =>
  change(c, 'modify_conversation_receipt_mode', { groupOnly: true }, async ({ conv }) => {
    if (conv.protocol === 'mls') throw new ApiError(galleyErrors.mlsReceiptsNotAllowed);
    return conv.receiptMode === receipt_mode
      ? 'unchanged'
      : { type: 'conversation.receipt-mode-update', data: { receipt_mode }, patch: { receiptMode: receipt_mode } };
  });

export const updateReceiptMode = endpoint(
  {
    name: 'update-conversation-receipt-mode',
    path: '/conversations/{cnv_domain}/{cnv}/receipt-mode',
    request: { params: convParams, ...receiptModeBody },
    ...receiptModeRoute,
  },
  (c) => setReceiptMode(c, c.req.valid('json').receipt_mode),
);

export const updateReceiptModeUnqualified = endpoint(
  {
    name: 'update-conversation-receipt-mode-unqualified',
    path: '/conversations/{cnv}/receipt-mode',
    until: 8,
    request: { params: localConvParams, ...receiptModeBody },
    ...receiptModeRoute,
  },
  (c) => setReceiptMode(c, c.req.valid('json').receipt_mode),
);

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x) => b.includes(x));

const accessRoute = {
  method: 'put',
  // Opening a channel (access `link`) also takes the channels feature and a role it admits.
  errors: [
    galleyErrors.noConversation,
    galleyErrors.actionDenied,
    galleyErrors.invalidOp,
    galleyErrors.channelsNotEnabled,
    galleyErrors.operationDenied,
  ],
  responses: changed,
} as const;

function setAccess(
  c: Context<AppEnv>,
  body: { access: readonly z.infer<typeof access>[]; roles: readonly AccessRole[] },
) {
  const nextAccess = [...new Set(body.access)];
  const nextRoles = [...new Set(body.roles)];
  const next = (m: Viewing) => ({ ...m.conv, access: nextAccess, accessRole: nextRoles });
  // Members the new roles exclude are removed after the change is announced.
  const alongside = (m: Viewing) => kickDisallowedMembers(c, next(m), m.members);
  return change(
    c,
    'modify_conversation_access',
    { groupOnly: true, channelManagers: 'inside', alongside },
    async (m) => {
      if (nextAccess.includes('private') || nextRoles.length === 0)
        throw new ApiError(galleyErrors.invalidOp, 'Invalid target access');
      if (m.conv.team === null && sameSet(nextRoles, ['team_member']))
        throw new ApiError(galleyErrors.invalidOp, 'Invalid target access');
      if (sameSet(nextAccess, m.conv.access) && sameSet(nextRoles, m.conv.accessRole)) return 'unchanged';
      await requireOpeningAllowed(database(c.env.DB), c.get('config'), m.conv, selfQualified(c).id, nextAccess);
      return {
        type: 'conversation.access-update',
        data: { access: nextAccess, access_role: toLegacyAccessRole(nextRoles), access_role_v2: nextRoles },
        patch: { access: nextAccess, accessRole: nextRoles },
      };
    },
  );
}

export const updateAccess = endpoint(
  {
    name: 'update-conversation-access',
    path: '/conversations/{cnv_domain}/{cnv}/access',
    from: 3,
    request: {
      params: convParams,
      ...jsonBody(
        z.object({ access: z.array(access), access_role: z.array(accessRole) }).openapi('ConversationAccessData'),
      ),
    },
    ...accessRoute,
  },
  (c) => {
    const body = c.req.valid('json');
    return setAccess(c, { access: body.access, roles: body.access_role });
  },
);

/** Until v3 the roles come as `access_role_v2`, or as a legacy `access_role` word. */
const accessDataV2 = jsonBody(
  z
    .object({
      access: z.array(access),
      access_role: accessRoleLegacy.optional(),
      access_role_v2: z.array(accessRole).optional(),
    })
    .refine((b) => b.access_role !== undefined || b.access_role_v2 !== undefined, {
      message: 'access_role|access_role_v2',
    })
    .openapi('ConversationAccessDataV2'),
);
const rolesOfV2 = (b: {
  access_role?: z.infer<typeof accessRoleLegacy> | undefined;
  access_role_v2?: AccessRole[] | undefined;
}) => b.access_role_v2 ?? fromLegacyAccessRole(b.access_role!);

export const updateAccessV2 = endpoint(
  {
    name: 'update-conversation-access@v2',
    path: '/conversations/{cnv_domain}/{cnv}/access',
    until: 3,
    request: { params: convParams, ...accessDataV2 },
    ...accessRoute,
  },
  (c) => {
    const body = c.req.valid('json');
    return setAccess(c, { access: body.access, roles: rolesOfV2(body) });
  },
);

export const updateAccessUnqualified = endpoint(
  {
    name: 'update-conversation-access-unqualified',
    path: '/conversations/{cnv}/access',
    until: 3,
    request: { params: localConvParams, ...accessDataV2 },
    ...accessRoute,
  },
  (c) => {
    const body = c.req.valid('json');
    return setAccess(c, { access: body.access, roles: rolesOfV2(body) });
  },
);

export const updateAddPermission = endpoint(
  {
    name: 'update-channel-add-permission',
    method: 'put',
    path: '/conversations/{cnv_domain}/{cnv}/add-permission',
    request: {
      params: convParams,
      ...jsonBody(z.object({ add_permission: addPermission }).openapi('AddPermissionUpdate')),
    },
    errors: commonErrors,
    responses: changed,
  },
  (c) => {
    const { add_permission } = c.req.valid('json');
    return change(c, 'modify_add_permission', { groupOnly: true, channelManagers: 'inside' }, async ({ conv }) => {
      if (conv.groupConvType !== 'channel') throw new ApiError(galleyErrors.invalidOp, 'Invalid target access');
      return conv.addPermission === add_permission
        ? 'unchanged'
        : {
            type: 'conversation.add-permission-update',
            data: { add_permission },
            patch: { addPermission: add_permission },
          };
    });
  },
);

const typingBody = jsonBody(z.object({ status: z.enum(['started', 'stopped']) }).openapi('TypingData'));
const typingRoute = {
  method: 'post',
  errors: [galleyErrors.noConversation, ...FEDERATED_CALL_ERRORS],
  responses: { 200: { description: 'Typing status sent' } },
} as const;

async function sendTyping(c: Context<AppEnv>, status: 'started' | 'stopped'): Promise<Response> {
  const { conv, members } = await requireMember(c, routeConversation(c));
  const config = c.get('config');
  if (conv.domain === config.brig.optSettings.setFederationDomain)
    await typingInOwned(c.env, config, conv, members, selfQualified(c), status);
  else await typingThroughOwner(c, conv, status);
  return c.body(null, 200);
}

export const typing = endpoint(
  {
    name: 'member-typing-qualified',
    path: '/conversations/{cnv_domain}/{cnv}/typing',
    request: { params: convParams, ...typingBody },
    ...typingRoute,
  },
  (c) => sendTyping(c, c.req.valid('json').status),
);

export const typingUnqualified = endpoint(
  {
    name: 'member-typing-unqualified',
    path: '/conversations/{cnv}/typing',
    until: 3,
    request: { params: localConvParams, ...typingBody },
    ...typingRoute,
  },
  (c) => sendTyping(c, c.req.valid('json').status),
);
