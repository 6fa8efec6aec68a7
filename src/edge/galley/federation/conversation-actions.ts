// Conversation changes as the federation API names them (wire's SomeConversationAction: a tag and
// the action's JSON), to and from the events this backend's members get.
import type { EventQid } from '../../../shared/events/conversation-event.js';
import { memberJoinData, memberLeaveData } from '../../../shared/events/member-events.js';
import { toLegacyAccessRole } from '../conversations/access.js';

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

/** The effect of a remote owner's action, done by `from`; undefined for actions this backend does not know. */
export function effectOfAction(a: ConversationAction, from: EventQid): LocalEffect | undefined {
  const act = (a.action ?? {}) as Data;
  switch (a.tag) {
    case 'ConversationRenameTag':
      return { kind: 'patch', type: 'conversation.rename', data: { name: act.name }, patch: { name: act.name } };
    case 'ConversationMessageTimerUpdateTag':
      return {
        kind: 'patch',
        type: 'conversation.message-timer-update',
        data: { message_timer: act.message_timer ?? null },
        patch: { messageTimer: act.message_timer ?? null },
      };
    case 'ConversationReceiptModeUpdateTag':
      return {
        kind: 'patch',
        type: 'conversation.receipt-mode-update',
        data: { receipt_mode: act.receipt_mode },
        patch: { receiptMode: act.receipt_mode },
      };
    case 'ConversationAccessDataTag': {
      const roles = (act.access_role as string[]) ?? [];
      return {
        kind: 'patch',
        type: 'conversation.access-update',
        data: { access: act.access, access_role: toLegacyAccessRole(roles), access_role_v2: roles },
        patch: { access: act.access, accessRole: roles },
      };
    }
    case 'ConversationUpdateAddPermissionTag':
      return {
        kind: 'patch',
        type: 'conversation.add-permission-update',
        data: { add_permission: act.add_permission },
        patch: { addPermission: act.add_permission },
      };
    case 'ConversationJoinTag': {
      const users = qids(act.users);
      const role = String(act.role ?? 'wire_member');
      const data = memberJoinData(users.map((u) => ({ ...u, role })));
      return { kind: 'join', type: 'conversation.member-join', data, users, role };
    }
    case 'ConversationLeaveTag':
      return { kind: 'leave', type: 'conversation.member-leave', data: memberLeaveData([from], 'left'), users: [from] };
    case 'ConversationRemoveMembersTag': {
      const users = qids(act.targets);
      const reason = act.reason === 'user-deleted' ? 'user-deleted' : 'removed';
      return { kind: 'leave', type: 'conversation.member-leave', data: memberLeaveData(users, reason), users };
    }
    case 'ConversationMemberUpdateTag': {
      const target = act.target as EventQid;
      const role = String((act.update as Data | undefined)?.conversation_role ?? 'wire_member');
      const data = { qualified_target: target, target: target.id, conversation_role: role };
      return { kind: 'member-role', type: 'conversation.member-update', data, target, role };
    }
    case 'ConversationDeleteTag':
      return { kind: 'delete', type: 'conversation.delete', data: null };
    default:
      return undefined;
  }
}
