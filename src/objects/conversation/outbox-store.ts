import type { Delivery } from '../../shared/notifications/types.js';
import { splitText } from '../../shared/db/split-text.js';
import { TextParts } from '../db/text-parts.js';

/** One message's deliveries still to be stored, by notification object. */
export interface PendingSend {
  seq: number;
  ttlSeconds: number;
  byObject: Map<string, Delivery[]>;
}

/** A message may have at most this many deliveries (marks are `seq * MARKS + k`). */
const MARKS = 4096;

/** A delivery as a row keeps it: its shared head is the message's head number `h` (see OutboxStore.heads). */
type StoredDelivery = Omit<Delivery, 'head'> & { h: number };

/**
 * The conversation object's outbox (its own SQLite storage): a message's deliveries are written
 * here, in one transaction, before any notification object is called, and removed once every one
 * of them has stored its part. What a crash leaves here is sent again; the objects recognise what
 * they already stored by the delivery's mark (see Delivery.from). A message's deliveries to its
 * objects share their head (the event around an MLS message, which may be megabytes): each
 * distinct head is kept once, in parts (`outbox_heads`, by `seq * MARKS + h`).
 */
export class OutboxStore {
  private lastSeq: number;
  private readonly heads: TextParts;

  constructor(private readonly sql: SqlStorage) {
    sql.exec(`CREATE TABLE IF NOT EXISTS outbox (
      mark INTEGER PRIMARY KEY,
      object TEXT NOT NULL,
      ttl INTEGER NOT NULL,
      delivery TEXT NOT NULL
    )`);
    // Marks must never be used twice, even after the outbox was emptied: the last one is kept.
    sql.exec('CREATE TABLE IF NOT EXISTS outbox_seq (id INTEGER PRIMARY KEY CHECK (id = 0), seq INTEGER NOT NULL)');
    this.lastSeq = sql.exec<{ seq: number }>('SELECT seq FROM outbox_seq WHERE id = 0').toArray()[0]?.seq ?? 0;
    this.heads = new TextParts(sql, 'outbox_heads', 'INTEGER');
  }

  /** Records a message's deliveries and gives each its mark (`from`); returns the message's number. */
  record(source: string, byObject: Map<string, Delivery[]>, ttlSeconds: number): number {
    const seq = ++this.lastSeq;
    this.sql.exec('INSERT OR REPLACE INTO outbox_seq (id, seq) VALUES (0, ?)', seq);
    let k = 0;
    const heads = new Map<string, number>();
    for (const [object, deliveries] of byObject)
      for (const d of deliveries) {
        if (k >= MARKS) throw new Error('too many deliveries in one message');
        d.from = [source, seq * MARKS + k++];
        let h = heads.get(d.head);
        if (h === undefined) {
          heads.set(d.head, (h = heads.size));
          this.heads.put(seq * MARKS + h, splitText(d.head));
        }
        const { head: _, ...rest } = d;
        const stored: StoredDelivery = { ...rest, h };
        this.sql.exec(
          'INSERT INTO outbox (mark, object, ttl, delivery) VALUES (?, ?, ?, ?)',
          d.from[1],
          object,
          ttlSeconds,
          JSON.stringify(stored),
        );
      }
    return seq;
  }

  /** Every part of the message is stored. */
  done(seq: number): void {
    this.sql.exec('DELETE FROM outbox WHERE mark >= ? AND mark < ?', seq * MARKS, (seq + 1) * MARKS);
    this.heads.dropRange(seq * MARKS, (seq + 1) * MARKS);
  }

  any(): boolean {
    return this.sql.exec('SELECT 1 FROM outbox LIMIT 1').toArray().length > 0;
  }

  /** The messages not yet stored everywhere, oldest first, but those `skip` names (still in flight). */
  pending(skip: ReadonlySet<number>): PendingSend[] {
    const sends = new Map<number, PendingSend>();
    const heads = new Map<number, string>();
    const delivery = (seq: number, json: string): Delivery => {
      const parsed = JSON.parse(json) as StoredDelivery | Delivery;
      if ('head' in parsed) return parsed; // recorded before heads were kept apart
      const { h, ...rest } = parsed;
      const owner = seq * MARKS + h;
      let head = heads.get(owner);
      if (head === undefined) heads.set(owner, (head = this.heads.joined(owner)));
      return { ...rest, head };
    };
    for (const r of this.sql.exec<{ mark: number; object: string; ttl: number; delivery: string }>(
      'SELECT mark, object, ttl, delivery FROM outbox ORDER BY mark',
    )) {
      const seq = Math.floor(r.mark / MARKS);
      if (skip.has(seq)) continue;
      let send = sends.get(seq);
      if (send === undefined) sends.set(seq, (send = { seq, ttlSeconds: r.ttl, byObject: new Map() }));
      const list = send.byObject.get(r.object);
      if (list === undefined) send.byObject.set(r.object, [delivery(seq, r.delivery)]);
      else list.push(delivery(seq, r.delivery));
    }
    return [...sends.values()];
  }
}
