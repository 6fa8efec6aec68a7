import { uuidToBytes, uuidV5 } from '../../../shared/uuid.js';
import type { QualifiedId } from '../../api/schemas/common.js';
import type { Deps } from '../../api/deps.js';
import { ensureSelfConversation } from '../conversations/self-conversation.js';
import { mlsPrivateConversationRow } from './mls-conversation-row.js';

/** wire-server's `namespaceMLSSelfConv`: a version-5 UUID made with the nil namespace. */
const MLS_SELF_NAMESPACE = '3eac2a2c-3850-510b-bd08-8a98e80dd4d9';

/** The id of a user's MLS self conversation (wire-server's `mlsSelfConvId`): UUIDv5 of the user id's 16 bytes. */
export async function mlsSelfConversationId(user: QualifiedId): Promise<QualifiedId> {
  return { id: await uuidV5(MLS_SELF_NAMESPACE, uuidToBytes(user.id)!), domain: user.domain };
}

/** The user's MLS self conversation, made now (epoch 0, the user its only member) when missing. */
export async function ensureMlsSelfConversation(d: Deps, me: QualifiedId) {
  const id = await mlsSelfConversationId(me);
  return ensureSelfConversation(d, mlsPrivateConversationRow(id, me.id, 1), me);
}
