// Conversation changes as the federation API names them (wire's SomeConversationAction: a tag and
// the action's JSON), to and from the events this backend's members get.
import { z } from 'zod';
import type { EventQid } from '../../../shared/events/conversation-event.js';
import { ApiError } from '../../api/errors/api-error.js';
import { commonErrors } from '../../api/errors/common.js';
import { withoutAbsentNulls } from '../../api/null-as-absent.js';
import { memberJoinData, memberLeaveData } from '../../../shared/events/member-events.js';
import { type AccessRole, toLegacyAccessRole } from '../conversations/access.js';
import type { ConversationUpdate } from '../conversations/update-request.js';

export interface ConversationAction {
  tag: string;
  action: unknown;
}

type Data = Record<string, unknown>;
const qids = (users: unknown) => (users as EventQid[]).map((u) => ({ id: u.id, domain: u.domain }));

/** The action an event of the owner announces; undefined for events other backends are not told of. */
export function actionOfEvent(event: {
  type: string;
  data: unknown;
  qualified_from: EventQid;
}): ConversationAction | undefined {
  const data = (event.data ?? {}) as Data;
  switch (event.type) {
    case 'conversation.rename':
      return { tag: 'ConversationRenameTag', action: { name: data.name } };
    case 'conversation.message-timer-update':
      return { tag: 'ConversationMessageTimerUpdateTag', action: { message_timer: data.message_timer } };
    case 'conversation.receipt-mode-update':
      return { tag: 'ConversationReceiptModeUpdateTag', action: { receipt_mode: data.receipt_mode } };
    case 'conversation.access-update':
      return { tag: 'ConversationAccessDataTag', action: { access: data.access, access_role: data.access_role_v2 } };
    case 'conversation.add-permission-update':
      return { tag: 'ConversationUpdateAddPermissionTag', action: { add_permission: data.add_permission } };
    case 'conversation.member-join': {
      const users = data.users as Array<{ qualified_id: EventQid; conversation_role: string }>;
      return {
        tag: 'ConversationJoinTag',
        action: { users: users.map((u) => u.qualified_id), role: users[0]?.conversation_role ?? 'wire_member' },
      };
    }
    case 'conversation.member-leave': {
      const targets = qids(data.qualified_user_ids);
      const self =
        targets.length === 1 &&
        targets[0]!.id === event.qualified_from.id &&
        targets[0]!.domain === event.qualified_from.domain;
      return self && data.reason === 'left'
        ? { tag: 'ConversationLeaveTag', action: null }
        : { tag: 'ConversationRemoveMembersTag', action: { targets, reason: data.reason } };
    }
    case 'conversation.member-update':
      return {
        tag: 'ConversationMemberUpdateTag',
        action: { target: data.qualified_target, update: { conversation_role: data.conversation_role } },
      };
    case 'conversation.delete':
      return { tag: 'ConversationDeleteTag', action: null };
    default:
      return undefined;
  }
}

/** What an action does here: the event's type and data, and the change to the local copy. */
export type LocalEffect =
  | { kind: 'patch'; type: string; data: unknown; patch: Record<string, unknown> }
  | { kind: 'join'; type: string; data: unknown; users: EventQid[]; role: string }
  | { kind: 'leave'; type: string; data: unknown; users: EventQid[] }
  | { kind: 'member-role'; type: string; data: unknown; target: EventQid; role: string }
  | { kind: 'delete'; type: string; data: null };

/** Whether a conversation has every value of a patch (of its columns) already. */
export function patchMade(conv: object, patch: Record<string, unknown>): boolean {
  const row = conv as Record<string, unknown>;
  return Object.entries(patch).every(([k, v]) => JSON.stringify(row[k]) === JSON.stringify(v));
}

const qid = z.object({ id: z.uuid(), domain: z.string().min(1) });
const role = z.string().min(1).max(128);
/** What each known action carries (wire's schemas for SomeConversationAction). */
const actionSchemas = {
  ConversationRenameTag: z.object({ name: z.string().min(1).max(256) }),
  ConversationMessageTimerUpdateTag: z.object({ message_timer: z.int().min(0).nullish() }),
  ConversationReceiptModeUpdateTag: z.object({ receipt_mode: z.int() }),
  ConversationAccessDataTag: z.object({ access: z.array(z.string()), access_role: z.array(z.string()) }),
  ConversationUpdateAddPermissionTag: z.object({ add_permission: z.enum(['admins', 'everyone']) }),
  ConversationJoinTag: z.object({ users: z.array(qid).min(1), role }),
  ConversationLeaveTag: z.unknown(),
  ConversationRemoveMembersTag: z.object({ targets: z.array(qid).min(1), reason: z.string().optional() }),
  ConversationMemberUpdateTag: z.object({ target: qid, update: z.object({ conversation_role: role }) }),
  ConversationDeleteTag: z.unknown(),
} as const;

/**
 * The effect of a remote owner's action, done by `from`: undefined for actions this backend does
 * not know; 400 `bad-request` for a known one that does not have its shape.
 */
export function effectOfAction(a: ConversationAction, from: EventQid): LocalEffect | undefined {
  const parsed = parsedAction(a);
  return parsed === undefined ? undefined : effectOf(parsed.tag, parsed.act, from);
}

type Actions = { [T in keyof typeof actionSchemas]: z.output<(typeof actionSchemas)[T]> };
type ParsedAction = { [T in keyof Actions]: { tag: T; act: Actions[T] } }[keyof Actions];

/** A known action checked against its tag's schema (400 `bad-request` when it does not fit); undefined for others. */
function parsedAction(a: ConversationAction): ParsedAction | undefined {
  if (!Object.hasOwn(actionSchemas, a.tag)) return undefined;
  const tag = a.tag as keyof typeof actionSchemas;
  const parsed = actionSchemas[tag].safeParse(withoutAbsentNulls(actionSchemas[tag], a.action));
  if (!parsed.success) throw new ApiError(commonErrors.badRequest, `${tag}: malformed action`);
  return { tag, act: parsed.data } as ParsedAction;
}

/** `act` was parsed with the tag's schema. */
function effectOf(tag: keyof Actions, act: unknown, from: EventQid): LocalEffect {
  switch (tag) {
    case 'ConversationRenameTag': {
      const { name } = act as Actions['ConversationRenameTag'];
      return { kind: 'patch', type: 'conversation.rename', data: { name }, patch: { name } };
    }
    case 'ConversationMessageTimerUpdateTag': {
      const message_timer = (act as Actions['ConversationMessageTimerUpdateTag']).message_timer ?? null;
      return {
        kind: 'patch',
        type: 'conversation.message-timer-update',
        data: { message_timer },
        patch: { messageTimer: message_timer },
      };
    }
    case 'ConversationReceiptModeUpdateTag': {
      const { receipt_mode } = act as Actions['ConversationReceiptModeUpdateTag'];
      return {
        kind: 'patch',
        type: 'conversation.receipt-mode-update',
        data: { receipt_mode },
        patch: { receiptMode: receipt_mode },
      };
    }
    case 'ConversationAccessDataTag': {
      const { access, access_role } = act as Actions['ConversationAccessDataTag'];
      return {
        kind: 'patch',
        type: 'conversation.access-update',
        data: { access, access_role: toLegacyAccessRole(access_role), access_role_v2: access_role },
        patch: { access, accessRole: access_role },
      };
    }
    case 'ConversationUpdateAddPermissionTag': {
      const { add_permission } = act as Actions['ConversationUpdateAddPermissionTag'];
      return {
        kind: 'patch',
        type: 'conversation.add-permission-update',
        data: { add_permission },
        patch: { addPermission: add_permission },
      };
    }
    case 'ConversationJoinTag': {
      const { users, role } = act as Actions['ConversationJoinTag'];
      const data = memberJoinData(users.map((u) => ({ ...u, role })));
      return { kind: 'join', type: 'conversation.member-join', data, users, role };
    }
    case 'ConversationLeaveTag':
      return { kind: 'leave', type: 'conversation.member-leave', data: memberLeaveData([from], 'left'), users: [from] };
    case 'ConversationRemoveMembersTag': {
      const { targets, reason } = act as Actions['ConversationRemoveMembersTag'];
      const why = reason === 'user-deleted' ? 'user-deleted' : 'removed';
      return { kind: 'leave', type: 'conversation.member-leave', data: memberLeaveData(targets, why), users: targets };
    }
    case 'ConversationMemberUpdateTag': {
      const { target, update } = act as Actions['ConversationMemberUpdateTag'];
      const data = { qualified_target: target, target: target.id, conversation_role: update.conversation_role };
      return { kind: 'member-role', type: 'conversation.member-update', data, target, role: update.conversation_role };
    }
    default:
      return { kind: 'delete', type: 'conversation.delete', data: null };
  }
}

/** The action a member's update asks of the owner; undefined for updates with no action (leaving has its own RPC). */
export function actionOfUpdate(u: ConversationUpdate): ConversationAction | undefined {
  switch (u.kind) {
    case 'rename':
      return { tag: 'ConversationRenameTag', action: { name: u.name } };
    case 'message-timer':
      return { tag: 'ConversationMessageTimerUpdateTag', action: { message_timer: u.messageTimer } };
    case 'receipt-mode':
      return { tag: 'ConversationReceiptModeUpdateTag', action: { receipt_mode: u.receiptMode } };
    case 'access':
      return { tag: 'ConversationAccessDataTag', action: { access: u.access, access_role: u.accessRole } };
    case 'add-permission':
      return { tag: 'ConversationUpdateAddPermissionTag', action: { add_permission: u.addPermission } };
    case 'member-role':
      return {
        tag: 'ConversationMemberUpdateTag',
        action: { target: u.target, update: { conversation_role: u.role } },
      };
    case 'remove-members':
      return { tag: 'ConversationRemoveMembersTag', action: { targets: u.targets, reason: u.reason ?? 'removed' } };
    default:
      return undefined;
  }
}

/**
 * The update a remote member's action asks for: undefined for actions that are not updates of a
 * conversation (joining, leaving and deleting have their own ways); 400 `bad-request` for a known
 * action that does not have its shape.
 */
export function updateOfAction(a: ConversationAction): ConversationUpdate | undefined {
  const parsed = parsedAction(a);
  if (parsed === undefined) return undefined;
  switch (parsed.tag) {
    case 'ConversationRenameTag':
      return { kind: 'rename', name: parsed.act.name };
    case 'ConversationMessageTimerUpdateTag':
      return { kind: 'message-timer', messageTimer: parsed.act.message_timer ?? null };
    case 'ConversationReceiptModeUpdateTag':
      return { kind: 'receipt-mode', receiptMode: parsed.act.receipt_mode };
    case 'ConversationAccessDataTag':
      return { kind: 'access', access: parsed.act.access, accessRole: parsed.act.access_role as AccessRole[] };
    case 'ConversationUpdateAddPermissionTag':
      return { kind: 'add-permission', addPermission: parsed.act.add_permission };
    case 'ConversationMemberUpdateTag':
      return { kind: 'member-role', target: parsed.act.target, role: parsed.act.update.conversation_role };
    case 'ConversationRemoveMembersTag': {
      const reason = parsed.act.reason === 'user-deleted' ? 'user-deleted' : 'removed';
      return { kind: 'remove-members', targets: parsed.act.targets, reason };
    }
    default:
      return undefined;
  }
}
