import type { ApiVersion } from '../../../shared/api-version.js';
import type { QualifiedId } from '../../api/schemas/common.js';
import { toLegacyAccessRole } from './access.js';
import type { ConversationRow, MemberRow } from './conversation-store.js';
import { serviceOf } from './member-data.js';

const EPOCH_ZERO = '1970-01-01T00:00:00.000Z';

/** The viewer's own membership, every key present as galley writes it. */
export function selfMemberJson(m: MemberRow) {
  return {
    qualified_id: { id: m.userId, domain: m.userDomain },
    id: m.userId,
    conversation_role: m.role,
    service: null,
    status: 0,
    status_ref: '0.0',
    status_time: EPOCH_ZERO,
    otr_muted_status: m.otrMutedStatus,
    otr_muted_ref: m.otrMutedRef,
    otr_archived: m.otrArchived,
    otr_archived_ref: m.otrArchivedRef,
    hidden: m.hidden,
    hidden_ref: m.hiddenRef,
  };
}

export const otherMemberJson = (m: MemberRow) => {
  const service = serviceOf(m);
  return {
    qualified_id: { id: m.userId, domain: m.userDomain },
    id: m.userId,
    conversation_role: m.role,
    ...(service === undefined ? {} : { service }),
    status: 0,
  };
};

/** Access roles as a version writes them: a list from v3, the legacy value plus `access_role_v2` before. */
function accessRoles(roles: string[], v: ApiVersion | 'event') {
  return v !== 'event' && v >= 3
    ? { access_role: roles }
    : { access_role: toLegacyAccessRole(roles), access_role_v2: roles };
}

/** wire-server's `showUTCTime` (`%FT%T%QZ`): fractional seconds without trailing zeros, none when whole. */
export const utcTime = (ms: number) => new Date(ms).toISOString().replace(/\.?0+Z$/, 'Z');

/**
 * MLS state (wire's `mlsDataSchema`): group id and epoch always. The epoch's time and the cipher
 * suite are the group's "active data", there once a commit set both. Before v6 (and in events) the
 * keys are always written, as null and suite 1 while inactive; from v6 only while active.
 */
function protocolFields(c: ConversationRow, v: ApiVersion | 'event') {
  if (c.protocol === 'proteus') return {};
  const ids = { group_id: c.groupId, epoch: c.epoch };
  const active =
    c.epochTimestamp !== null && c.cipherSuite !== null
      ? { epoch_timestamp: utcTime(c.epochTimestamp), cipher_suite: c.cipherSuite }
      : undefined;
  if (v === 'event' || v < 6) return { ...ids, ...(active ?? { epoch_timestamp: null, cipher_suite: 1 }) };
  return { ...ids, ...active };
}

/**
 * A conversation as `viewer` sees it in API version `v` (`event`: the fixed v2 shape that events
 * carry). `self` is the viewer's membership; the others are everybody else.
 */
export function conversationJson(
  c: ConversationRow,
  members: readonly MemberRow[],
  viewer: QualifiedId,
  v: ApiVersion | 'event',
) {
  const mine = members.find((m) => m.userId === viewer.id && m.userDomain === viewer.domain);
  const others = members.filter((m) => m !== mine);
  return {
    qualified_id: { id: c.id, domain: c.domain },
    id: c.id,
    type: c.type,
    creator: c.creator,
    access: c.access,
    ...accessRoles(c.accessRole, v),
    name: c.name,
    team: c.team,
    message_timer: c.messageTimer,
    receipt_mode: c.receiptMode,
    group_conv_type: c.type === 0 ? (c.groupConvType ?? 'group_conversation') : null,
    add_permission: c.addPermission,
    parent: null,
    history: null,
    last_event: '0.0',
    last_event_time: EPOCH_ZERO,
    cells_state: c.cellsState,
    members: { ...(mine === undefined ? {} : { self: selfMemberJson(mine) }), others: others.map(otherMemberJson) },
    protocol: c.protocol,
    ...protocolFields(c, v),
  };
}
