import type { QualifiedId } from '../../api/schemas/common.js';
import type { AccessRole } from './access.js';

export type Protocol = 'proteus' | 'mixed' | 'mls';

/** A change to a conversation, as a member (or a manager of its channel) asks for it. */
export type ConversationUpdate =
  | { kind: 'rename'; name: string }
  | { kind: 'message-timer'; messageTimer: number | null }
  | { kind: 'receipt-mode'; receiptMode: number }
  | { kind: 'access'; access: readonly string[]; accessRole: readonly AccessRole[] }
  | { kind: 'add-permission'; addPermission: 'admins' | 'everyone' }
  | { kind: 'member-role'; target: QualifiedId; role: string }
  | { kind: 'protocol'; protocol: Protocol }
  /** Members removed by another (`user-deleted`: their account is gone, as a remote owner says). */
  | { kind: 'remove-members'; targets: readonly QualifiedId[]; reason?: 'removed' | 'user-deleted' }
  /** The actor leaves. */
  | { kind: 'leave' };
