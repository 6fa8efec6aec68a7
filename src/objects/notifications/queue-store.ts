import type { LogStore, QueuedEntry } from './log-store.js';

interface QueueRow extends Record<string, SqlStorageValue> {
  cursor: number;
  missed: number;
}

/** Acknowledgements kept above a cursor, out of order; more from one client are ignored (redelivered). */
const MAX_ACKS_AHEAD = 1000;

/**
 * The durable queues of the clients that consume notifications (`GET /events`), as cursors over
 * the notification log rather than a row per event per client: a client's queue is its user's
 * stream as that client sees it, after the cursor. A delivery tag is the notification id's
 * uuidV1Seq, so tags rise in stream order; a synchronization marker takes a fresh tag between two
 * notifications. Everything up to the cursor is acknowledged; single acknowledgements ahead of an
 * unacknowledged entry are kept aside until the entries before them are acknowledged too.
 * When rows older than the notification TTL are dropped, a cursor behind them moves up to the
 * cut-off, and the client is marked as having missed notifications if any of its own were there.
 */
export class QueueStore {
  /** Queue-consuming clients by user, read once per wake-up: every append needs them. */
  private cached: Map<string, string[]> | undefined;

  constructor(
    private readonly sql: SqlStorage,
    private readonly log: LogStore,
    /** A tag after every one handed out so far. */
    private readonly freshTag: () => number,
  ) {
    sql.exec(`CREATE TABLE IF NOT EXISTS queues (
      user TEXT NOT NULL,
      client TEXT NOT NULL,
      cursor INTEGER NOT NULL,
      missed INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (user, client)
    ) WITHOUT ROWID`);
    sql.exec(`CREATE TABLE IF NOT EXISTS queue_acks (
      user TEXT NOT NULL,
      client TEXT NOT NULL,
      tag INTEGER NOT NULL,
      PRIMARY KEY (user, client, tag)
    ) WITHOUT ROWID`);
  }

  /** The queue starts empty: only notifications made from now on are in it. */
  enable(user: string, client: string): void {
    this.sql.exec(
      'INSERT INTO queues (user, client, cursor) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
      user,
      client,
      this.freshTag(),
    );
    this.cached = undefined;
  }

  drop(user: string, client: string): void {
    this.cached = undefined;
    this.sql.exec('DELETE FROM queues WHERE user = ? AND client = ?', user, client);
    this.sql.exec('DELETE FROM queue_acks WHERE user = ? AND client = ?', user, client);
  }

  clients(user: string): readonly string[] {
    if (this.cached === undefined) {
      this.cached = new Map();
      for (const r of this.sql.exec<{ user: string; client: string }>('SELECT user, client FROM queues')) {
        const list = this.cached.get(r.user) ?? [];
        list.push(r.client);
        this.cached.set(r.user, list);
      }
    }
    return this.cached.get(user) ?? [];
  }

  has(user: string, client: string): boolean {
    return this.clients(user).includes(client);
  }

  /** The tag of a synchronization marker placed now. */
  markerTag(): number {
    return this.freshTag();
  }

  /** Everything not yet acknowledged, oldest first (redelivered on every connect). */
  pending(user: string, client: string, cutoff: number): QueuedEntry[] {
    const q = this.queue(user, client);
    if (q === undefined) return [];
    const acked = new Set(this.acked(user, client));
    return this.log
      .entriesAfter(user, client, q.cursor, Number.POSITIVE_INFINITY, cutoff)
      .filter((e) => !acked.has(e.tag));
  }

  ack(user: string, client: string, tag: number, multiple: boolean): void {
    const q = this.queue(user, client);
    // A tag above every one handed out was never sent: it acknowledges nothing.
    if (q === undefined || tag <= q.cursor || tag > this.freshTag()) return;
    if (multiple) {
      this.moveCursor(user, client, tag);
      return;
    }
    const ahead = this.acked(user, client);
    if (ahead.length >= MAX_ACKS_AHEAD) return;
    const acked = [...ahead, tag].sort((a, b) => a - b);
    let cursor = q.cursor;
    // The cursor moves over acknowledged tags as long as no unacknowledged entry comes first.
    while (acked.length > 0) {
      const next = this.log.entriesAfter(user, client, cursor, 1, 0)[0]?.tag;
      if (next !== undefined && acked[0]! > next) break;
      cursor = acked.shift()!;
    }
    if (cursor > q.cursor) this.moveCursor(user, client, cursor);
    if (acked.includes(tag))
      this.sql.exec('INSERT OR IGNORE INTO queue_acks (user, client, tag) VALUES (?, ?, ?)', user, client, tag);
  }

  /** Before rows older than `cutoff` go: every cursor behind it moves up (see expireOne). */
  expire(cutoff: number): void {
    const behind = this.sql
      .exec<{ user: string; client: string }>('SELECT user, client FROM queues WHERE cursor < ?', cutoff - 1)
      .toArray();
    for (const q of behind) this.expireOne(q.user, q.client, cutoff);
  }

  /**
   * Moves the client's cursor up to the cut-off if it is behind; if the client had unacknowledged
   * notifications before it, they are lost to its queue and it has missed notifications.
   */
  expireOne(user: string, client: string, cutoff: number): void {
    const q = this.queue(user, client);
    if (q === undefined || q.cursor >= cutoff - 1) return;
    const acked = new Set(this.acked(user, client));
    const lost = this.log
      .entriesAfter(user, client, q.cursor, acked.size + 1, 0)
      .some((e) => e.tag < cutoff && !acked.has(e.tag));
    if (lost) this.sql.exec('UPDATE queues SET missed = 1 WHERE user = ? AND client = ?', user, client);
    this.moveCursor(user, client, cutoff - 1);
  }

  missed(user: string, client: string): boolean {
    return this.queue(user, client)?.missed === 1;
  }

  clearMissed(user: string, client: string): void {
    this.sql.exec('UPDATE queues SET missed = 0 WHERE user = ? AND client = ?', user, client);
  }

  private queue(user: string, client: string): QueueRow | undefined {
    return this.sql
      .exec<QueueRow>('SELECT cursor, missed FROM queues WHERE user = ? AND client = ?', user, client)
      .toArray()[0];
  }

  private acked(user: string, client: string): number[] {
    return this.sql
      .exec<{ tag: number }>('SELECT tag FROM queue_acks WHERE user = ? AND client = ? ORDER BY tag', user, client)
      .toArray()
      .map((r) => r.tag);
  }

  private moveCursor(user: string, client: string, cursor: number): void {
    this.sql.exec(
      'UPDATE queues SET cursor = ? WHERE user = ? AND client = ? AND cursor < ?',
      cursor,
      user,
      client,
      cursor,
    );
    this.sql.exec('DELETE FROM queue_acks WHERE user = ? AND client = ? AND tag <= ?', user, client, cursor);
  }
}
