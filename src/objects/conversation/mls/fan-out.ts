import { toBase64 } from '../../../shared/base64.js';
import { conversationEvent } from '../../../shared/events/conversation-event.js';
import type { GroupClient, MlsSender } from '../../../shared/mls/delivery.js';
import type { UserNotifications } from '../../../shared/notifications/types.js';
import type { QualifiedRef } from '../../../shared/proteus/types.js';

interface MlsFanOut {
  conv: QualifiedRef;
  /** Messages of a subconversation say so (a Welcome names the parent alone). */
  subconv?: string | undefined;
  sender: MlsSender;
  localDomain: string;
  time: string;
}

/**
 * One notification per local user, targeted at their clients among `to`: an MLSMessage event
 * (`conversation.mls-message-add` or `conversation.mls-welcome`) with the message in base64. The
 * sending client never gets its own message; its user's other clients do.
 */
export function mlsNotifications(
  type: 'conversation.mls-message-add' | 'conversation.mls-welcome',
  message: Uint8Array,
  to: readonly GroupClient[],
  o: MlsFanOut,
): UserNotifications[] {
  const event = conversationEvent(type, o.conv, { id: o.sender.user, domain: o.sender.domain }, toBase64(message), {
    time: o.time,
    subconv: type === 'conversation.mls-message-add' ? o.subconv : undefined,
  });
  const byUser = new Map<string, string[]>();
  for (const c of to) {
    if (c.domain !== o.localDomain) continue; // remote members: through federation, later
    if (c.user === o.sender.user && c.domain === o.sender.domain && c.client === o.sender.client) continue;
    byUser.set(c.user, [...(byUser.get(c.user) ?? []), c.client]);
  }
  // One serialisation for every recipient: a commit's update path can be large, and there may be thousands.
  const payloadJson = JSON.stringify([event]);
  return Array.from(byUser, ([user, clients]) => ({
    user,
    inputs: [
      {
        payloadJson,
        clients,
        ...(user === o.sender.user ? { originConnection: o.sender.connection } : {}),
      },
    ],
  }));
}

/** A conversation event (member-join, member-leave) to every one of these local users. */
export function toUsers(event: Record<string, unknown>, users: Iterable<string>): UserNotifications[] {
  return [...new Set(users)].map((user) => ({ user, inputs: [{ payload: [event] }] }));
}
