import { toBase64 } from '../../../shared/base64.js';
import { encodeGroupId, type ConvType } from '../../../shared/mls/group-id.js';
import type { QualifiedId } from '../../api/schemas/common.js';
import { privateConversationRow, type ConversationRow } from '../conversations/conversation-store.js';

/**
 * The group id, base64, that wire-server gives the MLS group of a new conversation (`newGroupId`):
 * version 1, the conversation's type (regular, self, 1:1), its id and owning domain, no generation.
 */
export function newGroupId(conv: QualifiedId, type: ConvType): string {
  return toBase64(encodeGroupId({ version: 1, convType: type, conv: conv.id, domain: conv.domain }));
}

/** A private MLS conversation (the MLS self conversation, an MLS 1:1) with its group id, at epoch 0. */
export function mlsPrivateConversationRow(conv: QualifiedId, creator: string | null, type: 1 | 2): ConversationRow {
  return { ...privateConversationRow(conv, creator, type), protocol: 'mls', groupId: newGroupId(conv, type) };
}
