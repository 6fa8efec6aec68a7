import type { OtrRecipient } from '../../shared/codecs/otr.js';
import { toBase64 } from '../../shared/base64.js';
import type { NotificationShards } from '../../edge/events/shards.js';
import { conversationEvent } from '../../edge/events/conversation-events.js';
import type { NotificationInput } from '../notifications/types.js';
import type { QualifiedRef } from './types.js';

export interface OtrFanOut {
  /** The conversation each recipient sees the message in (broadcasts use the recipient's own id). */
  conversationOf: (r: OtrRecipient) => QualifiedRef;
  sender: QualifiedRef & { client: string; connection: string };
  blob: Uint8Array | undefined;
  transient: boolean;
  time: string;
  ttlSeconds: number;
  localDomain: string;
}

/**
 * One `conversation.otr-message-add` per recipient client, targeted at that client, appended to
 * the recipients' notification shards with one call per shard. The calls are made before this
 * returns (the caller's order is the recipients' order); the promise settles once all are stored.
 */
export function fanOutOtr(shards: NotificationShards, deliver: readonly OtrRecipient[], o: OtrFanOut): Promise<void> {
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
  return shards.append(
    Array.from(byUser, ([user, inputs]) => ({ user, inputs })),
    o.ttlSeconds,
  );
}
