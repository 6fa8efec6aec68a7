import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../../src/edge/api/errors/api-error.js';
import { actionOfEvent, effectOfAction } from '../../../../src/edge/galley/federation/conversation-actions.js';
import { conversationEvent } from '../../../../src/shared/events/conversation-event.js';
import { memberJoinData, memberLeaveData } from '../../../../src/shared/events/member-events.js';

const conv = { id: '00000000-0000-4000-8000-00000000000c', domain: 'a.example' };
const alice = { id: '00000000-0000-4000-8000-00000000000a', domain: 'a.example' };
const bob = { id: '00000000-0000-4000-8000-00000000000b', domain: 'b.example' };

/** The owner's event, as an action, and back into the event the remote's members get. */
const roundTrip = (type: string, data: unknown, from = alice) => {
  const action = actionOfEvent(conversationEvent(type, conv, from, data))!;
  return effectOfAction(action, from)!;
};

describe('conversation actions between backends', () => {
  it('carry changes to the same event data on the other side', () => {
    expect(roundTrip('conversation.rename', { name: 'n' })).toMatchObject({
      data: { name: 'n' },
      patch: { name: 'n' },
    });
    expect(roundTrip('conversation.member-join', memberJoinData([{ ...bob, role: 'wire_member' }]))).toMatchObject({
      kind: 'join',
      users: [bob],
      role: 'wire_member',
      data: memberJoinData([{ ...bob, role: 'wire_member' }]),
    });
    expect(roundTrip('conversation.member-leave', memberLeaveData([bob], 'left'), bob)).toMatchObject({
      kind: 'leave',
      users: [bob],
      data: memberLeaveData([bob], 'left'),
    });
    expect(roundTrip('conversation.member-leave', memberLeaveData([bob], 'removed'))).toMatchObject({
      kind: 'leave',
      data: memberLeaveData([bob], 'removed'),
    });
    expect(roundTrip('conversation.delete', null)).toEqual({ kind: 'delete', type: 'conversation.delete', data: null });
  });

  it('leave events the federation API has no action for at home', () => {
    expect(actionOfEvent(conversationEvent('conversation.typing', conv, alice, { status: 'started' }))).toBeUndefined();
    expect(effectOfAction({ tag: 'SomeFutureTag', action: {} }, alice)).toBeUndefined();
  });

  it('refuse a known action without its shape as a bad request', () => {
    for (const action of [
      { tag: 'ConversationRenameTag', action: { name: 7 } },
      { tag: 'ConversationJoinTag', action: { users: 'x' } },
    ]) {
      const err = (() => {
        try {
          effectOfAction(action, alice);
        } catch (e) {
          return e;
        }
      })();
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).spec.label).toBe('bad-request');
    }
  });
});
