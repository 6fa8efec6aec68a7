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

/** A row's entries stay well under the 2 MB a SQLite row may hold here, whatever the text's encoding. */
const MAX_CHARS_PER_PART = 500_000;
/** An entry's share of a row: its middle, and room for its user and client ids. */
const entryCost = (e: DeliveryEntry) => e[2].length + 64 + (e[1]?.length ?? 0) * 20;

/**
 * A delivery in parts whose entries are small enough for one row each (a large Proteus message to
 * many recipients in one object); most deliveries are one part. The shared head and tail are in
 * every part whatever their size: the stores keep a long text in parts of its own (TextParts), and
 * a large MLS message to many is one part, not a copy per recipient. Entries keep their order.
 */
export function chunkDelivery(d: Delivery, maxChars = MAX_CHARS_PER_PART): Delivery[] {
  let size = 0;
  for (const e of d.to) size += entryCost(e);
  if (size <= maxChars) return [d];
  const parts: Delivery[] = [];
  let current: Delivery = { ...d, to: [] };
  size = 0;
  for (const e of d.to) {
    const cost = entryCost(e);
    if (current.to.length > 0 && size + cost > maxChars) {
      parts.push(current);
      current = { ...d, to: [] };
      size = 0;
    }
    current.to.push(e);
    size += cost;
  }
  parts.push(current);
  return parts;
}
