import { toBase64 } from '../base64.js';
import type { OtrRecipient } from '../codecs/otr.js';
import { conversationEvent } from '../events/conversation-event.js';
import type { Delivery } from '../notifications/types.js';
import type { QualifiedRef } from './types.js';

export interface OtrMessageFacts {
  /** The conversation each recipient sees the message in (broadcasts use the recipient's own id). */
  conversationOf: (r: OtrRecipient) => QualifiedRef;
  sender: QualifiedRef & { client: string; connection: string };
  blob: Uint8Array | undefined;
  transient: boolean;
  /** False: no native push to devices without a live websocket (the message's `native_push`). */
  nativePush: boolean;
  time: string;
  localDomain: string;
  /** The conversation log the message is stored in once (see Delivery); broadcasts have none. */
  channel?: string | undefined;
}

/**
 * One `conversation.otr-message-add` per local recipient client, targeted at that client: one
 * delivery per conversation the recipients see the message in, whose shared text is the event up
 * to its `data` and whose per-recipient part is that `data` (sender, recipient, ciphertext, blob).
 */
export function otrNotifications(deliver: readonly OtrRecipient[], o: OtrMessageFacts): Delivery[] {
  const deliveries = new Map<string, Delivery>();
  const deliveryOf = (conv: QualifiedRef) => {
    const key = `${conv.domain}/${conv.id}`;
    let d = deliveries.get(key);
    if (d === undefined) {
      const whole = JSON.stringify(
        conversationEvent('conversation.otr-message-add', conv, o.sender, null, { time: o.time }),
      );
      d = {
        channel: o.channel,
        head: `[${whole.slice(0, -'null}'.length)}`, // `data` is the envelope's last key
        tail: '}]',
        to: [],
        origin: { user: o.sender.id, connection: o.sender.connection },
        transient: o.transient,
        ...(o.nativePush ? {} : { nativePush: false as const }),
      };
      deliveries.set(key, d);
    }
    return d;
  };
  const senderJson = JSON.stringify(o.sender.client);
  const blobJson = JSON.stringify(o.blob === undefined ? '' : toBase64(o.blob));
  for (const r of deliver) {
    if (r.domain !== o.localDomain) continue; // other backends' recipients: their backend delivers
    const data = `{"sender":${senderJson},"recipient":"${r.client}","text":"${toBase64(r.text)}","data":${blobJson}}`;
    deliveryOf(o.conversationOf(r)).to.push([r.user, [r.client], data]);
  }
  return [...deliveries.values()];
}
