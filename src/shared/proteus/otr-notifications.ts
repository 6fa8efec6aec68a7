import { toBase64 } from '../base64.js';
import type { OtrRecipient } from '../codecs/otr.js';
import { conversationEvent } from '../events/conversation-event.js';
import type { NotificationInput, UserNotifications } from '../notifications/types.js';
import type { QualifiedRef } from './types.js';

export interface OtrMessageFacts {
  /** The conversation each recipient sees the message in (broadcasts use the recipient's own id). */
  conversationOf: (r: OtrRecipient) => QualifiedRef;
  sender: QualifiedRef & { client: string; connection: string };
  blob: Uint8Array | undefined;
  transient: boolean;
  time: string;
  localDomain: string;
}

/**
 * One `conversation.otr-message-add` per local recipient client, targeted at that client, grouped
 * by user: what the message appends to the recipients' notification streams.
 */
export function otrNotifications(deliver: readonly OtrRecipient[], o: OtrMessageFacts): UserNotifications[] {
  // The event text is built once per conversation and completed per recipient: with thousands of
  // recipients, serialising a whole event each time is most of the work.
  const prefixes = new Map<string, string>();
  const prefixOf = (conv: QualifiedRef) => {
    const key = `${conv.domain}/${conv.id}`;
    let prefix = prefixes.get(key);
    if (prefix === undefined) {
      const whole = JSON.stringify(
        conversationEvent('conversation.otr-message-add', conv, o.sender, null, { time: o.time }),
      );
      prefix = whole.slice(0, -'null}'.length); // `data` is the envelope's last key
      prefixes.set(key, prefix);
    }
    return prefix;
  };
  const senderJson = JSON.stringify(o.sender.client);
  const blobJson = JSON.stringify(o.blob === undefined ? '' : toBase64(o.blob));
  const byUser = new Map<string, NotificationInput[]>();
  for (const r of deliver) {
    if (r.domain !== o.localDomain) continue; // remote recipients: through federation, later
    const data = `{"sender":${senderJson},"recipient":${JSON.stringify(r.client)},"text":"${toBase64(r.text)}","data":${blobJson}}`;
    const inputs = byUser.get(r.user) ?? [];
    inputs.push({
      payloadJson: `[${prefixOf(o.conversationOf(r))}${data}}]`,
      clients: [r.client],
      transient: o.transient,
      ...(r.user === o.sender.id ? { originConnection: o.sender.connection } : {}),
    });
    byUser.set(r.user, inputs);
  }
  return Array.from(byUser, ([user, inputs]) => ({ user, inputs }));
}
