import type { Delivery, DeliveryEntry } from './types.js';

/** Who gets an event: a local user, optionally only some of their clients. */
export interface Recipient {
  user: string;
  clients?: string[] | undefined;
}

/** The same payload (a JSON array's text) to every recipient: conversation and user events. */
export function sameForAll(
  payloadJson: string,
  recipients: Iterable<Recipient>,
  o: Pick<Delivery, 'channel' | 'origin' | 'transient'> = {},
): Delivery {
  const to: DeliveryEntry[] = [];
  for (const r of recipients) to.push([r.user, r.clients ?? null, '']);
  return { ...o, head: payloadJson, tail: '', to };
}

/** A delivery's entries split by the notification object of their users; head and tail are shared. */
export function splitDelivery(d: Delivery, objectOf: (user: string) => string): Map<string, Delivery> {
  const parts = new Map<string, Delivery>();
  for (const entry of d.to) {
    const n = objectOf(entry[0]);
    const part = parts.get(n);
    if (part === undefined) parts.set(n, { ...d, to: [entry] });
    else part.to.push(entry);
  }
  return parts;
}
