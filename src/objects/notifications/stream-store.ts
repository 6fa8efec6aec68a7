import type {
  EventPayload,
  ListQuery,
  ListResult,
  NotificationInput,
  QueuedNotification,
} from '../../shared/notifications/types.js';
import { timeKey, uuidV1Key } from '../../shared/uuid-v1.js';

interface Row extends Record<string, SqlStorageValue> {
  id: string;
  payload: string;
}

/**
 * The notification streams of a shard's users in its SQLite. Each row carries the time in its v1
 * UUID id as a sortable key (`uuidV1Key`; the shard makes ids in increasing time), so a user's
 * stream is a range of the (user, key) index, `since` lookups need no index of their own, and
 * TTL cut-offs are key comparisons. Each row is optionally targeted at some of the user's clients.
 */
export class StreamStore {
  private lastPurge = 0;

  constructor(private readonly sql: SqlStorage) {
    // Rows go to the end of the rowid tree in time order; only the small index is per user.
    sql.exec(`CREATE TABLE IF NOT EXISTS notifications (
      seq INTEGER PRIMARY KEY,
      user TEXT NOT NULL,
      key TEXT NOT NULL,
      id TEXT NOT NULL,
      payload TEXT NOT NULL,
      clients TEXT
    )`);
    sql.exec('CREATE INDEX IF NOT EXISTS notifications_user_key ON notifications (user, key)');
  }

  /** Stores a notification whose payload is already JSON text. */
  append(user: string, id: string, n: NotificationInput, payloadJson: string): void {
    const clients = n.clients === undefined ? null : JSON.stringify(n.clients);
    this.sql.exec(
      'INSERT INTO notifications (user, key, id, payload, clients) VALUES (?, ?, ?, ?, ?)',
      user,
      uuidV1Key(id),
      id,
      payloadJson,
      clients,
    );
  }

  /**
   * Drops what is older than the TTL, at most once a minute. Rows are in time order, so the
   * first live one is found by walking the expired ones from the start.
   */
  purge(ttlSeconds: number, now: number): void {
    if (now - this.lastPurge < 60_000) return;
    this.lastPurge = now;
    const first = this.sql
      .exec<{ seq: number }>(
        'SELECT seq FROM notifications WHERE key >= ? ORDER BY seq LIMIT 1',
        timeKey(now - ttlSeconds * 1000),
      )
      .toArray()[0];
    if (first === undefined) this.sql.exec('DELETE FROM notifications');
    else this.sql.exec('DELETE FROM notifications WHERE seq < ?', first.seq);
  }

  private has(user: string, id: string, cutoff: string): boolean {
    const key = uuidV1Key(id);
    return (
      key >= cutoff &&
      this.sql.exec('SELECT 1 FROM notifications WHERE user = ? AND key = ? AND id = ?', user, key, id).toArray()
        .length > 0
    );
  }

  /** Untargeted rows, or targeted at the client; without a client every row is visible (as gundeck does). */
  private static visibleTo =
    `(clients IS NULL OR ? IS NULL OR EXISTS (SELECT 1 FROM json_each(clients) WHERE value = ?))`;

  list(user: string, q: ListQuery): ListResult {
    this.purge(q.ttlSeconds, Date.now());
    const cutoff = timeKey(Date.now() - q.ttlSeconds * 1000);
    const found = q.since === undefined || this.has(user, q.since, cutoff);
    // Found: strictly after it. Not found: from the start of what is still kept.
    const after = found && q.since !== undefined ? uuidV1Key(q.since) : undefined;
    const client = q.client ?? null;
    const rows = this.sql
      .exec<Row>(
        `SELECT id, payload FROM notifications WHERE user = ? AND (key > ? OR (? IS NULL AND key >= ?)) AND ${StreamStore.visibleTo} ORDER BY key LIMIT ?`,
        user,
        after ?? cutoff,
        after ?? null,
        cutoff,
        client,
        client,
        q.size + 1,
      )
      .toArray();
    const notifications = rows.slice(0, q.size).map(toNotification);
    return { found, notifications, hasMore: rows.length > q.size };
  }

  /** Rows older than the TTL count as gone even before the next purge. */
  last(user: string, client: string | undefined, ttlSeconds: number): QueuedNotification | undefined {
    const c = client ?? null;
    const row = this.sql
      .exec<Row>(
        `SELECT id, payload FROM notifications WHERE user = ? AND key >= ? AND ${StreamStore.visibleTo} ORDER BY key DESC LIMIT 1`,
        user,
        timeKey(Date.now() - ttlSeconds * 1000),
        c,
        c,
      )
      .toArray()[0];
    return row === undefined ? undefined : toNotification(row);
  }

  get(user: string, id: string, client: string | undefined, ttlSeconds: number): QueuedNotification | undefined {
    const c = client ?? null;
    const key = uuidV1Key(id);
    if (key < timeKey(Date.now() - ttlSeconds * 1000)) return undefined;
    const row = this.sql
      .exec<Row>(
        `SELECT id, payload FROM notifications WHERE user = ? AND key = ? AND id = ? AND ${StreamStore.visibleTo}`,
        user,
        key,
        id,
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
