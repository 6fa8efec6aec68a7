import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { endpoint } from '../../api/endpoint.js';
import { galleyErrors } from '../../api/errors/galley.js';
import { FEDERATED_CALL_ERRORS } from '../../api/errors/federation.js';
import { json, jsonBody } from '../../api/schemas/common.js';
import { selfQualified, self } from '../../api/self.js';
import {
  access,
  accessRole,
  accessRoleLegacy,
  addPermission,
  fromLegacyAccessRole,
  type AccessRole,
} from './access.js';
import { requireMember, type Viewing, loadMembershipOf } from './access-check.js';
import { commitChange } from '../../effects/commit-change.js';
import { convParams, localConvParams, routeConversation } from './read-routes.js';
import { updateThroughOwner } from '../federation/update-conversation.js';
import { typingInOwned, typingThroughOwner } from '../federation/typing.js';
import { deps } from '../../api/deps.js';
import { checkUpdate, makeUpdate } from './conversation-update.js';
import type { ConversationUpdate } from './update-request.js';

const event = z.record(z.string(), z.unknown()).openapi('Event');
export const changed = { 200: { description: 'Updated', ...json(event) }, 204: { description: 'Nothing changed' } };
const commonErrors = [galleyErrors.noConversation, galleyErrors.actionDenied, galleyErrors.invalidOp];

/**
 * The caller's update of the route's conversation: checked on this backend's copy, then made here
 * when this backend owns the conversation, else by its owner. The event the caller gets, or
 * 'unchanged'.
 */
export async function updateAsCaller(c: Context<AppEnv>, update: ConversationUpdate, viewing?: Viewing) {
  const d = deps(c);
  const actor = selfQualified(c);
  const v = viewing ?? (await loadMembershipOf(deps(c), routeConversation(c), selfQualified(c)));
  if ((await checkUpdate(d, v, actor, update, { announceRepeats: true })) === 'unchanged') return 'unchanged';
  if (v.conv.domain !== d.domain) return (await updateThroughOwner(c, v.conv, update)) ?? 'unchanged';
  const made = await makeUpdate(d, v, actor, update, self(c));
  if (made === 'unchanged') return 'unchanged';
  await commitChange(d.env, d.config, made.change);
  return made.event;
}

/** `updateAsCaller` answered as the metadata routes answer: 200 with the event, or 204. */
export async function updated(c: Context<AppEnv>, update: ConversationUpdate): Promise<Response> {
  const outcome = await updateAsCaller(c, update);
  return outcome === 'unchanged' ? c.body(null, 204) : c.json(outcome, 200);
}

const renameBody = jsonBody(z.object({ name: z.string().min(1).max(256) }).openapi('ConversationRename'));
const renameRoute = { method: 'put', errors: commonErrors, responses: changed } as const;
const rename = (c: Context<AppEnv>, name: string) => updated(c, { kind: 'rename', name });

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
const setMessageTimer = (c: Context<AppEnv>, messageTimer: number | null) =>
  updated(c, { kind: 'message-timer', messageTimer });

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
const setReceiptMode = (c: Context<AppEnv>, receiptMode: number) => updated(c, { kind: 'receipt-mode', receiptMode });

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
  return updated(c, { kind: 'access', access: [...new Set(body.access)], accessRole: [...new Set(body.roles)] });
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
  (c) => updated(c, { kind: 'add-permission', addPermission: c.req.valid('json').add_permission }),
);

const typingBody = jsonBody(z.object({ status: z.enum(['started', 'stopped']) }).openapi('TypingData'));
const typingRoute = {
  method: 'post',
  errors: [galleyErrors.noConversation, ...FEDERATED_CALL_ERRORS],
  responses: { 200: { description: 'Typing status sent' } },
} as const;

async function sendTyping(c: Context<AppEnv>, status: 'started' | 'stopped'): Promise<Response> {
  const { conv, members } = await requireMember(deps(c), routeConversation(c), selfQualified(c));
  const config = c.get('config');
  if (conv.domain === deps(c).domain) await typingInOwned(c.env, config, conv, members, selfQualified(c), status);
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
