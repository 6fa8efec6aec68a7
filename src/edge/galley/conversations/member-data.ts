import { memberJoinData as sharedMemberJoinData } from '../../../shared/events/member-events.js';
import type { QualifiedId } from '../../api/schemas/common.js';
import type { MemberRow } from './conversation-store.js';

/** A new member's row: default role-given state, nothing muted, archived or hidden. */
export const memberRow = (conv: QualifiedId, user: QualifiedId, role: string, now = Date.now()): MemberRow => ({
  convDomain: conv.domain,
  convId: conv.id,
  userDomain: user.domain,
  userId: user.id,
  role,
  otrMutedStatus: null,
  otrMutedRef: null,
  otrArchived: false,
  otrArchivedRef: null,
  hidden: false,
  hiddenRef: null,
  joinedAt: now,
});

/** The data of `conversation.member-join` for these new members. */
export const memberJoinData = (added: MemberRow[]) =>
  sharedMemberJoinData(added.map((m) => ({ id: m.userId, domain: m.userDomain, role: m.role })));
