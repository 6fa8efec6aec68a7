import type { QueuedNotification } from './types.js';

/** One entry of a client's queue: an event, or the synchronization marker placed at connect. */
export type QueueEntry = { tag: number; kind: 'event'; event: QueuedNotification } | { tag: number; kind: 'marker'; marker: string };

interface EntryRow extends Record<string, SqlStorageValue> {
  tag: number;
  body: string;
  marker: string | null;
}

/**
 * Durable per-client queues of the clients that consume notifications (`GET /events`). Entries
 * stay until acknowledged; delivery tags are the entries' row ids, so `multiple` acks are ranges.
 * Entries older than the notification TTL are dropped and the client is marked as having missed
 * notifications until it acknowledges a full sync.
 */
export class QueueStore {
  /** The queue-consuming clients, read once per wake-up: every append needs them. */
  private cachedClients: string[] | undefined;

  constructor(private readonly sql: SqlStorage) {
    sql.exec(`CREATE TABLE IF NOT EXISTS queues (
      client TEXT PRIMARY KEY,
      missed INTEGER NOT NULL DEFAULT 0
    )`);
    sql.exec(`CREATE TABLE IF NOT EXISTS queue_entries (
      tag INTEGER PRIMARY KEY AUTOINCREMENT,
      client TEXT NOT NULL,
      body TEXT NOT NULL,
      marker TEXT,
      created_at INTEGER NOT NULL
    )`);
    sql.exec('CREATE INDEX IF NOT EXISTS queue_entries_client ON queue_entries (client, tag)');
  }

  enable(client: string): void {
    this.sql.exec('INSERT INTO queues (client) VALUES (?) ON CONFLICT (client) DO NOTHING', client);
    this.cachedClients = undefined;
  }

  drop(client: string): void {
    this.cachedClients = undefined;
    this.sql.exec('DELETE FROM queues WHERE client = ?', client);
    this.sql.exec('DELETE FROM queue_entries WHERE client = ?', client);
  }

  clients(): string[] {
    return (this.cachedClients ??= this.sql.exec<{ client: string }>('SELECT client FROM queues').toArray().map((r) => r.client));
  }

  has(client: string): boolean {
    return this.sql.exec('SELECT 1 FROM queues WHERE client = ?', client).toArray().length > 0;
  }

  /** Queues an event (`{id, payload}` as JSON text) for the client; returns its delivery tag. */
  push(client: string, eventJson: string, now: number): number {
    return this.sql
      .exec<{ tag: number }>('INSERT INTO queue_entries (client, body, created_at) VALUES (?, ?, ?) RETURNING tag', client, eventJson, now)
      .one().tag;
  }

  pushMarker(client: string, marker: string, now: number): number {
    return this.sql
      .exec<{ tag: number }>(
        "INSERT INTO queue_entries (client, body, marker, created_at) VALUES (?, '', ?, ?) RETURNING tag",
        client,
        marker,
        now,
      )
      .one().tag;
  }

  /** Everything not yet acknowledged, oldest first (redelivered on every connect). */
  pending(client: string): QueueEntry[] {
    return this.sql
      .exec<EntryRow>('SELECT tag, body, marker FROM queue_entries WHERE client = ? ORDER BY tag', client)
      .toArray()
      .map((r) =>
        r.marker === null
          ? { tag: r.tag, kind: 'event' as const, event: JSON.parse(r.body) as QueuedNotification }
          : { tag: r.tag, kind: 'marker' as const, marker: r.marker },
      );
  }

  ack(client: string, tag: number, multiple: boolean): void {
    if (multiple) this.sql.exec('DELETE FROM queue_entries WHERE client = ? AND tag <= ?', client, tag);
    else this.sql.exec('DELETE FROM queue_entries WHERE client = ? AND tag = ?', client, tag);
  }

  /** Drops expired entries; their clients have missed notifications. */
  expire(ttlSeconds: number, now: number): void {
    const cutoff = now - ttlSeconds * 1000;
    this.sql.exec(
      'UPDATE queues SET missed = 1 WHERE client IN (SELECT DISTINCT client FROM queue_entries WHERE created_at < ? AND marker IS NULL)',
      cutoff,
    );
    this.sql.exec('DELETE FROM queue_entries WHERE created_at < ?', cutoff);
  }

  missed(client: string): boolean {
    return this.sql.exec<{ missed: number }>('SELECT missed FROM queues WHERE client = ?', client).toArray()[0]?.missed === 1;
  }

  clearMissed(client: string): void {
    this.sql.exec('UPDATE queues SET missed = 0 WHERE client = ?', client);
  }
}
