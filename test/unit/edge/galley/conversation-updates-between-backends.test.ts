import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../../src/edge/api/errors/api-error.js';
import type { ConversationUpdate } from '../../../../src/edge/galley/conversations/update-request.js';
import { actionOfUpdate, updateOfAction } from '../../../../src/edge/galley/federation/conversation-actions.js';

const bob = { id: '00000000-0000-4000-8000-00000000000b', domain: 'b.example' };

/** What a member asks of a remote owner, as the owner reads it. */
const atOwner = (u: ConversationUpdate) => updateOfAction(actionOfUpdate(u)!);

describe("a member's update, asked of the conversation's owner", () => {
  it('arrives as the same update', () => {
    const updates: ConversationUpdate[] = [
      { kind: 'rename', name: 'n' },
      { kind: 'message-timer', messageTimer: 5000 },
      { kind: 'message-timer', messageTimer: null },
      { kind: 'receipt-mode', receiptMode: 1 },
      { kind: 'access', access: ['invite', 'code'], accessRole: ['team_member', 'guest'] },
      { kind: 'add-permission', addPermission: 'everyone' },
      { kind: 'member-role', target: bob, role: 'wire_admin' },
      { kind: 'remove-members', targets: [bob], reason: 'removed' },
      { kind: 'remove-members', targets: [bob], reason: 'user-deleted' },
    ];
    for (const u of updates) expect(atOwner(u)).toEqual(u);
  });

  it('names the action as wire does', () => {
    expect(actionOfUpdate({ kind: 'access', access: ['invite'], accessRole: ['guest'] })).toEqual({
      tag: 'ConversationAccessDataTag',
      action: { access: ['invite'], access_role: ['guest'] },
    });
    expect(actionOfUpdate({ kind: 'remove-members', targets: [bob] })).toEqual({
      tag: 'ConversationRemoveMembersTag',
      action: { targets: [bob], reason: 'removed' },
    });
  });

  it('has no update-conversation action for leaving or a protocol move', () => {
    expect(actionOfUpdate({ kind: 'leave' })).toBeUndefined();
    expect(actionOfUpdate({ kind: 'protocol', protocol: 'mixed' })).toBeUndefined();
  });

  it('is no update when the action joins, leaves or deletes (those have their own ways) or is unknown', () => {
    for (const tag of ['ConversationJoinTag', 'ConversationLeaveTag', 'ConversationDeleteTag', 'SomeFutureTag']) {
      const action = tag === 'ConversationJoinTag' ? { users: [bob], role: 'wire_member' } : null;
      expect(updateOfAction({ tag, action })).toBeUndefined();
    }
  });

  it('refuses a known action without its shape as a bad request', () => {
    const err = (() => {
      try {
        updateOfAction({ tag: 'ConversationMemberUpdateTag', action: { target: bob } });
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).spec.label).toBe('bad-request');
  });
});
