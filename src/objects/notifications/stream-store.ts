import type { EventPayload, ListQuery, ListResult, NotificationInput, QueuedNotification } from './types.js';

interface Row extends Record<string, SqlStorageValue> {
  seq: number;
  id: string;
  payload: string;
}

/**
 * A user's notification stream in its Durable Object's SQLite: ordered by `seq`, each row
 * optionally targeted at some clients, dropped once older than the TTL.
 */
export class StreamStore {
  private lastPurge = 0;

  constructor(private readonly sql: SqlStorage) {
    sql.exec(`CREATE TABLE IF NOT EXISTS notifications (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      payload TEXT NOT NULL,
      clients TEXT,
      created_at INTEGER NOT NULL
    )`);
    sql.exec('CREATE INDEX IF NOT EXISTS notifications_created ON notifications (created_at)');
  }

  /** Stores a notification whose payload is already JSON text. */
  append(id: string, n: NotificationInput, payloadJson: string, now: number): number {
    const clients = n.clients === undefined ? null : JSON.stringify(n.clients);
    const row = this.sql
      .exec<{ seq: number }>(
        'INSERT INTO notifications (id, payload, clients, created_at) VALUES (?, ?, ?, ?) RETURNING seq',
        id,
        payloadJson,
        clients,
        now,
      )
      .one();
    return row.seq;
  }

  /** Drops what is older than the TTL; at most once a minute, since it scans an index. */
  purge(ttlSeconds: number, now: number): void {
    if (now - this.lastPurge < 60_000) return;
    this.lastPurge = now;
    this.sql.exec('DELETE FROM notifications WHERE created_at < ?', now - ttlSeconds * 1000);
  }

  private seqOf(id: string, ttlSeconds: number): number | undefined {
    const cutoff = Date.now() - ttlSeconds * 1000;
    return this.sql.exec<{ seq: number }>('SELECT seq FROM notifications WHERE id = ? AND created_at >= ?', id, cutoff).toArray()[0]
      ?.seq;
  }

  /** Untargeted rows, or targeted at the client; without a client every row is visible (as gundeck does). */
  private static visibleTo = `(clients IS NULL OR ? IS NULL OR EXISTS (SELECT 1 FROM json_each(clients) WHERE value = ?))`;

  list(q: ListQuery): ListResult {
    this.purge(q.ttlSeconds, Date.now());
    const sinceSeq = q.since === undefined ? 0 : this.seqOf(q.since, q.ttlSeconds);
    const client = q.client ?? null;
    const rows = this.sql
      .exec<Row>(
        `SELECT seq, id, payload FROM notifications WHERE seq > ? AND created_at >= ? AND ${StreamStore.visibleTo} ORDER BY seq LIMIT ?`,
        sinceSeq ?? 0,
        Date.now() - q.ttlSeconds * 1000,
        client,
        client,
        q.size + 1,
      )
      .toArray();
    const notifications = rows.slice(0, q.size).map(toNotification);
    return { found: sinceSeq !== undefined, notifications, hasMore: rows.length > q.size };
  }

  /** Rows older than the TTL count as gone even before the next purge. */
  last(client: string | undefined, ttlSeconds: number): QueuedNotification | undefined {
    const c = client ?? null;
    const row = this.sql
      .exec<Row>(
        `SELECT seq, id, payload FROM notifications WHERE created_at >= ? AND ${StreamStore.visibleTo} ORDER BY seq DESC LIMIT 1`,
        Date.now() - ttlSeconds * 1000,
        c,
        c,
      )
      .toArray()[0];
    return row === undefined ? undefined : toNotification(row);
  }

  get(id: string, client: string | undefined, ttlSeconds: number): QueuedNotification | undefined {
    const c = client ?? null;
    const row = this.sql
      .exec<Row>(
        `SELECT seq, id, payload FROM notifications WHERE id = ? AND created_at >= ? AND ${StreamStore.visibleTo}`,
        id,
        Date.now() - ttlSeconds * 1000,
        c,
        c,
      )
      .toArray()[0];
    return row === undefined ? undefined : toNotification(row);
  }
}

function toNotification(r: Row): QueuedNotification {
  return { id: r.id, payload: JSON.parse(r.payload) as EventPayload[] };
}
