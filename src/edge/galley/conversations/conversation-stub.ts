import type { QualifiedId } from '../../api/schemas/common.js';

/** The conversation's object (its owner and ordering point), reached through its RPC methods. */
export function conversationObject(env: Env, conv: QualifiedId) {
  return env.CONVERSATIONS.get(env.CONVERSATIONS.idFromName(`${conv.domain}/${conv.id}`));
}
