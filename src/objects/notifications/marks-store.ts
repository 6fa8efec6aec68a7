import type { Delivery } from '../../shared/notifications/types.js';

/** Senders remembered in memory at most; the table keeps them all. */
const MAX_REMEMBERED = 50_000;

/**
 * The last mark each sender's deliveries reached here (see Delivery.from). A sender that sends a
 * message again after a crash sends the same marks, and what was already stored is skipped: with
 * the sender's outbox, a message ends up stored once for every recipient or for none.
 */
export class MarksStore {
  private readonly last = new Map<string, number>();
  private readonly changed = new Set<string>();

  constructor(private readonly sql: SqlStorage) {
    sql.exec('CREATE TABLE IF NOT EXISTS marks (source TEXT PRIMARY KEY, mark INTEGER NOT NULL) WITHOUT ROWID');
  }

  /** Whether a delivery is new here; a new one moves its sender's mark. Unmarked ones always are. */
  fresh(d: Delivery): boolean {
    if (d.from === undefined) return true;
    const [source, mark] = d.from;
    let last = this.last.get(source);
    if (last === undefined) {
      if (this.last.size >= MAX_REMEMBERED) this.last.clear();
      last =
        this.sql.exec<{ mark: number }>('SELECT mark FROM marks WHERE source = ?', source).toArray()[0]?.mark ?? -1;
    }
    if (mark <= last) return false;
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
