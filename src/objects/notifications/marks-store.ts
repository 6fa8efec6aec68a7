import type { Delivery } from '../../shared/notifications/types.js';

/** Senders remembered in memory at most; the table keeps them all. */
const MAX_REMEMBERED = 50_000;

/**
 * The highest mark each sender's deliveries reached here (see Delivery.from). A sender's marks
 * rise, so a delivery above its sender's mark is new without a look at the log. One at or below
 * it is a resend (after a crash, or after a failed call while later messages went through), and
 * the log says whether it was stored: with the sender's outbox, a message ends up stored once for
 * every recipient or for none.
 */
export class MarksStore {
  private readonly last = new Map<string, number>();
  private readonly changed = new Set<string>();

  constructor(private readonly sql: SqlStorage) {
    sql.exec('CREATE TABLE IF NOT EXISTS marks (source TEXT PRIMARY KEY, mark INTEGER NOT NULL) WITHOUT ROWID');
  }

  /** Whether a delivery is to be stored here; `stored` answers for a resend. Unmarked ones always are. */
  fresh(d: Delivery, stored: (d: Delivery) => boolean): boolean {
    if (d.from === undefined) return true;
    const [source, mark] = d.from;
    let last = this.last.get(source);
    if (last === undefined) {
      if (this.last.size >= MAX_REMEMBERED) this.last.clear();
      last =
        this.sql.exec<{ mark: number }>('SELECT mark FROM marks WHERE source = ?', source).toArray()[0]?.mark ?? -1;
    }
    if (mark <= last) {
      this.last.set(source, last);
      return !stored(d);
    }
    this.last.set(source, mark);
    this.changed.add(source);
    return true;
  }

  /** The caller's transaction failed: what moved in memory since the last save did not happen. */
  discard(): void {
    for (const source of this.changed) this.last.delete(source);
    this.changed.clear();
  }

  /** Writes the marks moved since the last call (in the caller's transaction). */
  save(): void {
    for (const source of this.changed)
      this.sql.exec('INSERT OR REPLACE INTO marks (source, mark) VALUES (?, ?)', source, this.last.get(source)!);
    this.changed.clear();
  }
}
