import type { EventQid } from './conversation-event.js';

/**
 * The data of `conversation.member-join` for users joining with these roles. `external_add`: they
 * were added to a channel by the backend and join its MLS group themselves, by external commit.
 */
export const memberJoinData = (
  added: ReadonlyArray<EventQid & { role: string }>,
  addType: 'internal_add' | 'external_add' = 'internal_add',
) => ({
  users: added.map((m) => ({ qualified_id: { id: m.id, domain: m.domain }, id: m.id, conversation_role: m.role })),
  user_ids: added.map((m) => m.id),
  add_type: addType,
});

/** The data of `conversation.member-leave`. */
export const memberLeaveData = (users: readonly EventQid[], reason: 'left' | 'removed' | 'user-deleted') => ({
  qualified_user_ids: users.map((u) => ({ id: u.id, domain: u.domain })),
  user_ids: users.map((u) => u.id),
  reason,
});
