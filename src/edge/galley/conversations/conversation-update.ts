// One path for each change to a conversation's metadata and members: the client routes and the
// federation RPC update-conversation both check, write and announce it here, with one role table.
import type { Deps } from '../../api/deps.js';
import { ApiError } from '../../api/errors/api-error.js';
import { galleyErrors } from '../../api/errors/galley.js';
import type { QualifiedId } from '../../api/schemas/common.js';
import type { AccessClaims } from '../../auth/tokens.js';
import { type Change, joinChanges } from '../../effects/commit-change.js';
import { conversationEvent, type ConversationEventType } from '../../events/conversation-events.js';
import { memberLeaveData } from '../../../shared/events/member-events.js';
import { toLegacyAccessRole } from './access.js';
import { checkProtocolTransition, protocolPatch } from '../mls/protocol-transition.js';
import type { ConversationUpdate } from './update-request.js';
import { managesChannel, requireAction, type Viewing } from './access-check.js';
import { kickDisallowedMembers } from './access-effects.js';
import { requireOpeningAllowed } from './channel-permissions.js';
import type { ConversationRow } from './conversation-store.js';
import { conversationBook } from './conversation-book.js';
import { tellMembersEffect } from './notify.js';
import { ROLE_ADMIN, ROLE_MEMBER, type ConversationAction } from './roles.js';
import { membershipChangedEffect } from './conversation-object.js';

interface Rule {
  /** What the actor's conversation role must allow. */
  action: ConversationAction;
  /** Only group conversations have it (403 `invalid-op` elsewhere). */
  groupOnly: boolean;
  /**
   * Admins of a channel's team act whatever their conversation role (wire's ManageChannels);
   * `outside`: also when they are not in the channel.
   */
  channelManagers?: 'inside' | 'outside';
}

/** The role table: one for the client routes and for remote members. */
const RULES: Record<ConversationUpdate['kind'], Rule> = {
  rename: { action: 'modify_conversation_name', groupOnly: false, channelManagers: 'outside' },
  'message-timer': { action: 'modify_conversation_message_timer', groupOnly: true, channelManagers: 'inside' },
  'receipt-mode': { action: 'modify_conversation_receipt_mode', groupOnly: true },
  access: { action: 'modify_conversation_access', groupOnly: true, channelManagers: 'inside' },
  'add-permission': { action: 'modify_add_permission', groupOnly: true, channelManagers: 'inside' },
  'member-role': { action: 'modify_other_conversation_member', groupOnly: true, channelManagers: 'inside' },
  protocol: { action: 'leave_conversation', groupOnly: false },
  'remove-members': { action: 'remove_conversation_member', groupOnly: true, channelManagers: 'outside' },
  leave: { action: 'leave_conversation', groupOnly: true },
};

/** The actor may act in the conversation as the rule says (404 `no-conversation`, 403 `action-denied`). */
async function authorize(d: Deps, v: Viewing, actor: QualifiedId, rule: Rule): Promise<void> {
  const manages =
    rule.channelManagers !== undefined && actor.domain === d.domain && (await managesChannel(d.db, v.conv, actor.id));
  if (v.me === undefined && !(manages && rule.channelManagers === 'outside'))
    throw new ApiError(galleyErrors.noConversation);
  if (!manages) requireAction(v.me!, rule.action);
}

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x) => b.includes(x));
const invalidTarget = (message: string) => new ApiError(galleyErrors.invalidOp, message);

/**
 * Whether `actor` may make the update and it is a valid one, as far as the conversation's
 * metadata tells (so a copy of another backend's conversation tells as well as the owner);
 * 'unchanged' when the conversation has it already. A rename to the same name is announced again
 * when `announceRepeats` (wire's client API); a remote member's call asked again after a crash
 * finds its change made.
 */
export async function checkUpdate(
  d: Deps,
  v: Viewing,
  actor: QualifiedId,
  update: ConversationUpdate,
  o: { announceRepeats?: boolean } = {},
): Promise<'unchanged' | 'valid'> {
  const rule = RULES[update.kind];
  await authorize(d, v, actor, rule);
  const { conv } = v;
  if (rule.groupOnly && conv.type !== 0) throw new ApiError(galleyErrors.invalidOp);
  switch (update.kind) {
    case 'rename':
      return o.announceRepeats !== true && conv.name === update.name ? 'unchanged' : 'valid';
    case 'message-timer':
      return conv.messageTimer === update.messageTimer ? 'unchanged' : 'valid';
    case 'receipt-mode':
      if (conv.protocol === 'mls') throw new ApiError(galleyErrors.mlsReceiptsNotAllowed);
      return conv.receiptMode === update.receiptMode ? 'unchanged' : 'valid';
    case 'access':
      if (update.access.includes('private') || update.accessRole.length === 0)
        throw invalidTarget('Invalid target access');
      if (conv.team === null && sameSet(update.accessRole, ['team_member']))
        throw invalidTarget('Invalid target access');
      if (sameSet(update.access, conv.access) && sameSet(update.accessRole, conv.accessRole)) return 'unchanged';
      await requireOpeningAllowed(d.db, d.config, conv, actor.id, update.access);
      return 'valid';
    case 'add-permission':
      if (conv.groupConvType !== 'channel') throw invalidTarget('Invalid target access');
      return conv.addPermission === update.addPermission ? 'unchanged' : 'valid';
    case 'member-role':
      if (update.target.id === actor.id && update.target.domain === actor.domain) throw invalidTarget('Invalid target');
      if (update.role !== ROLE_ADMIN && update.role !== ROLE_MEMBER) throw invalidTarget('Unknown role');
      return 'valid';
    case 'protocol':
      return checkProtocolTransition(d, v, update.protocol);
    case 'remove-members':
      if (update.targets.some((u) => u.id === actor.id && u.domain === actor.domain))
        throw invalidTarget('Invalid target');
      return 'valid';
    default:
      return 'valid';
  }
}

/** What an update of the conversation's own columns sets. */
function patchOf(conv: ConversationRow, update: ConversationUpdate): Partial<ConversationRow> | undefined {
  switch (update.kind) {
    case 'rename':
      return { name: update.name };
    case 'message-timer':
      return { messageTimer: update.messageTimer };
    case 'receipt-mode':
      return { receiptMode: update.receiptMode };
    case 'access':
      return { access: [...update.access], accessRole: [...update.accessRole] };
    case 'add-permission':
      return { addPermission: update.addPermission };
    case 'protocol':
      return protocolPatch(conv, update.protocol);
    default:
      return undefined;
  }
}

/** The event an update is announced with: its type and data (`targets`: the members it removes). */
export function announcementOf(
  update: ConversationUpdate,
  actor: QualifiedId,
  targets: readonly QualifiedId[] = [],
): { type: ConversationEventType; data: unknown } {
  switch (update.kind) {
    case 'rename':
      return { type: 'conversation.rename', data: { name: update.name } };
    case 'message-timer':
      return { type: 'conversation.message-timer-update', data: { message_timer: update.messageTimer } };
    case 'receipt-mode':
      return { type: 'conversation.receipt-mode-update', data: { receipt_mode: update.receiptMode } };
    case 'access': {
      const [access, roles] = [[...update.access], [...update.accessRole]];
      const data = { access, access_role: toLegacyAccessRole(roles), access_role_v2: roles };
      return { type: 'conversation.access-update', data };
    }
    case 'add-permission':
      return { type: 'conversation.add-permission-update', data: { add_permission: update.addPermission } };
    case 'protocol':
      return { type: 'conversation.protocol-update', data: { protocol: update.protocol } };
    case 'member-role': {
      const { target, role } = update;
      return {
        type: 'conversation.member-update',
        data: { qualified_target: target, target: target.id, conversation_role: role },
      };
    }
    case 'remove-members':
      return { type: 'conversation.member-leave', data: memberLeaveData(targets, update.reason ?? 'removed') };
    case 'leave':
      return { type: 'conversation.member-leave', data: memberLeaveData([actor], 'left') };
  }
}

/**
 * At the conversation's owner, after `checkUpdate`: the update's change with its event to every
 * member (and the backends of remote members), or 'unchanged' when it would change nothing.
 * `origin`: the local caller, whose websocket connection is spared.
 */
export async function makeUpdate(
  d: Deps,
  v: Viewing,
  actor: QualifiedId,
  update: ConversationUpdate,
  origin?: AccessClaims,
): Promise<'unchanged' | { event: ReturnType<typeof conversationEvent>; change: Change }> {
  const { conv, members } = v;
  const isMember = (u: QualifiedId) => members.some((m) => m.userId === u.id && m.userDomain === u.domain);
  const announced = (change: Change, targets: readonly QualifiedId[] = []) => {
    const { type, data } = announcementOf(update, actor, targets);
    const event = conversationEvent(type, conv, actor, data, { team: conv.team });
    const told = { statements: [], effects: [tellMembersEffect(conv, members, event, origin)] };
    return { event, change: joinChanges(change, told) };
  };
  const patch = patchOf(conv, update);
  if (patch !== undefined) {
    // A new protocol: the conversation's object reads the conversation again.
    const reload = update.kind === 'protocol' ? [membershipChangedEffect(conv)] : [];
    const made = announced(
      joinChanges(conversationBook.update(d.env, conv, patch), { statements: [], effects: reload }),
    );
    if (update.kind !== 'access') return made;
    // Members the new access roles no longer admit leave, after the change is announced.
    const kicked = await kickDisallowedMembers(d, { ...conv, ...patch }, members, actor, origin);
    return { event: made.event, change: joinChanges(made.change, kicked) };
  }
  if (update.kind === 'member-role') {
    if (!isMember(update.target)) throw new ApiError(galleyErrors.noConversationMember);
    return announced(conversationBook.updateMember(d.env, conv, update.target, { role: update.role }));
  }
  const targets = (update.kind === 'leave' ? [actor] : update.kind === 'remove-members' ? update.targets : []).filter(
    isMember,
  );
  if (targets.length === 0) return 'unchanged';
  const removed = joinChanges(conversationBook.removeMembers(d.env, conv, targets), {
    statements: [],
    effects: [membershipChangedEffect(conv, targets)],
  });
  return announced(removed, targets);
}
