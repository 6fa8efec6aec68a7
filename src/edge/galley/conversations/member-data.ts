import { memberJoinData as sharedMemberJoinData } from '../../../shared/events/member-events.js';
import type { QualifiedId } from '../../api/schemas/common.js';
import type { MemberRow } from './conversation-store.js';

/** A bot's service: its id and its provider's. */
export interface ServiceRef {
  id: string;
  provider: string;
}

/** A new member's row: default role-given state, nothing muted, archived or hidden; bots name their service. */
export const memberRow = (
  conv: QualifiedId,
  user: QualifiedId,
  role: string,
  now = Date.now(),
  service?: ServiceRef,
): MemberRow => ({
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
  serviceProvider: service?.provider ?? null,
  serviceId: service?.id ?? null,
});

/** A bot member's service; undefined for users. */
export const serviceOf = (m: Pick<MemberRow, 'serviceId' | 'serviceProvider'>): ServiceRef | undefined =>
  m.serviceId === null || m.serviceProvider === null ? undefined : { id: m.serviceId, provider: m.serviceProvider };

/** The data of `conversation.member-join` for these new members. */
export const memberJoinData = (added: MemberRow[], addType?: 'internal_add' | 'external_add') =>
  sharedMemberJoinData(
    added.map((m) => ({ id: m.userId, domain: m.userDomain, role: m.role })),
    addType,
  );
