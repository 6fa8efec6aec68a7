import type { QueuedNotification } from '../../shared/notifications/types.js';

/** One entry of a client's queue: an event, or the synchronization marker placed at connect. */
export type QueueEntry =
  | { tag: number; kind: 'event'; event: QueuedNotification }
  | { tag: number; kind: 'marker'; marker: string };

interface EntryRow extends Record<string, SqlStorageValue> {
  tag: number;
  body: string;
  marker: string | null;
}

/**
 * Durable per-client queues of the clients that consume notifications (`GET /events`), for the
 * users of a shard. Entries stay until acknowledged; delivery tags are the entries' row ids, so
 * `multiple` acks are ranges. Entries older than the notification TTL are dropped and the client
 * is marked as having missed notifications until it acknowledges a full sync.
 */
export class QueueStore {
  /** Queue-consuming clients by user, read once per wake-up: every append needs them. */
  private cached: Map<string, string[]> | undefined;

  constructor(private readonly sql: SqlStorage) {
    sql.exec(`CREATE TABLE IF NOT EXISTS queues (
      user TEXT NOT NULL,
      client TEXT NOT NULL,
      missed INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (user, client)
    )`);
    sql.exec(`CREATE TABLE IF NOT EXISTS queue_entries (
      tag INTEGER PRIMARY KEY AUTOINCREMENT,
      user TEXT NOT NULL,
      client TEXT NOT NULL,
      body TEXT NOT NULL,
      marker TEXT,
      created_at INTEGER NOT NULL
    )`);
    sql.exec('CREATE INDEX IF NOT EXISTS queue_entries_client ON queue_entries (user, client, tag)');
  }

  enable(user: string, client: string): void {
    this.sql.exec('INSERT INTO queues (user, client) VALUES (?, ?) ON CONFLICT DO NOTHING', user, client);
    this.cached = undefined;
  }

  drop(user: string, client: string): void {
    this.cached = undefined;
    this.sql.exec('DELETE FROM queues WHERE user = ? AND client = ?', user, client);
    this.sql.exec('DELETE FROM queue_entries WHERE user = ? AND client = ?', user, client);
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

  /** Queues an event (`{id, payload}` as JSON text) for the client; returns its delivery tag. */
  push(user: string, client: string, eventJson: string, now: number): number {
    return this.sql
      .exec<{ tag: number }>(
        'INSERT INTO queue_entries (user, client, body, created_at) VALUES (?, ?, ?, ?) RETURNING tag',
        user,
        client,
        eventJson,
        now,
      )
      .one().tag;
  }

  pushMarker(user: string, client: string, marker: string, now: number): number {
    return this.sql
      .exec<{ tag: number }>(
        "INSERT INTO queue_entries (user, client, body, marker, created_at) VALUES (?, ?, '', ?, ?) RETURNING tag",
        user,
        client,
        marker,
        now,
      )
      .one().tag;
  }

  /** Everything not yet acknowledged, oldest first (redelivered on every connect). */
  pending(user: string, client: string): QueueEntry[] {
    return this.sql
      .exec<EntryRow>(
        'SELECT tag, body, marker FROM queue_entries WHERE user = ? AND client = ? ORDER BY tag',
        user,
        client,
      )
      .toArray()
      .map((r) =>
        r.marker === null
          ? { tag: r.tag, kind: 'event' as const, event: JSON.parse(r.body) as QueuedNotification }
          : { tag: r.tag, kind: 'marker' as const, marker: r.marker },
      );
  }

  ack(user: string, client: string, tag: number, multiple: boolean): void {
    if (multiple)
      this.sql.exec('DELETE FROM queue_entries WHERE user = ? AND client = ? AND tag <= ?', user, client, tag);
    else this.sql.exec('DELETE FROM queue_entries WHERE user = ? AND client = ? AND tag = ?', user, client, tag);
  }

  /** Drops expired entries (of one user, or of all); their clients have missed notifications. */
  expire(user: string | undefined, ttlSeconds: number, now: number): void {
    const cutoff = now - ttlSeconds * 1000;
    const u = user ?? null;
    this.sql.exec(
      `UPDATE queues SET missed = 1 WHERE (?1 IS NULL OR user = ?1) AND (user, client) IN
         (SELECT user, client FROM queue_entries WHERE (?1 IS NULL OR user = ?1) AND created_at < ?2 AND marker IS NULL)`,
      u,
      cutoff,
    );
    this.sql.exec('DELETE FROM queue_entries WHERE (?1 IS NULL OR user = ?1) AND created_at < ?2', u, cutoff);
  }

  missed(user: string, client: string): boolean {
    return (
      this.sql
        .exec<{ missed: number }>('SELECT missed FROM queues WHERE user = ? AND client = ?', user, client)
        .toArray()[0]?.missed === 1
    );
  }

  clearMissed(user: string, client: string): void {
    this.sql.exec('UPDATE queues SET missed = 0 WHERE user = ? AND client = ?', user, client);
  }
}
