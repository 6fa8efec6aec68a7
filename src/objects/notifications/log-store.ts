import type { Delivery, ListQuery, ListResult, QueuedNotification } from '../../shared/notifications/types.js';
import { timeSeq, uuidV1Seq } from '../../shared/uuid-v1.js';
import { type Audience, clientsOf, entriesOf, type StoredEntry, TO_KEY, type View } from './row-entries.js';
import { splitText } from '../../shared/db/split-text.js';
import { TextParts } from '../db/text-parts.js';

interface LogRow extends Record<string, SqlStorageValue> {
  seq: number;
  ids: string;
  body: string;
  /** How many more parts of the body are in `log_parts` (see TextParts). */
  parts: number;
}

/** A row's text: the delivery's shared head and tail, and the entries of this object's users. */
interface Body {
  h: string;
  t: string;
  to: StoredEntry[];
}

/** One notification of a user found in a row: its place in the stream and its payload's text. */
interface Found {
  seq: number;
  /** Its index among the user's entries in the row (each has its own id). */
  j: number;
  id: string;
  payloadJson: string;
}

/** The text of a delivery's mark, as a row keeps it. */
const markOf = (d: Delivery) => (d.from === undefined ? null : `${d.from[0]}#${d.from[1]}`);

/** A user's own channel (events for them alone); conversation channels are `domain/id…`. */
const own = (user: string) => `@${user}`;
/** Rows read per query while a page is filled. */
const BATCH = 256;

/** A notification in a client's queue: its delivery tag (its id's uuidV1Seq) and `{id, payload}` as JSON text. */
export interface QueuedEntry {
  tag: number;
  eventJson: string;
}

/**
 * The notification streams of an object's users, stored once per delivery rather than once per
 * recipient. A row is one delivery: a conversation's message or event is one row for all of its
 * recipients here, in the conversation's channel; anything else is one row per recipient, in the
 * recipient's own channel. A user's stream is their own channel merged with the channels they
 * are subscribed to, in row order (`seq`, the order deliveries arrived in); a subscription is
 * opened by the first row naming the user and only narrows the search, since a row names exactly
 * who gets what.
 *
 * Ids are version-1 UUIDs from the object's generator, so they rise with `seq`: a row takes as
 * many consecutive ids as the most entries one user has in it, the user's `j`-th entry gets the
 * `j`-th, and the first one's time is the row's number (`seq`, see uuidV1Seq): finding an id's
 * row and the TTL cut-off are ranges of the primary key.
 */
export class LogStore {
  private lastPurge = 0;
  /** Users subscribed to a channel, read once per channel per wake-up: every row of it needs them. */
  private readonly subscribers = new Map<string, Set<string>>();
  /** The bodies longer than a row holds: a large group's commit to many. */
  private readonly parts: TextParts;

  constructor(
    private readonly sql: SqlStorage,
    /** Told the cut-off (a seq) before rows older than it are dropped: the queues' cursors may point there. */
    private readonly beforePurge: (cutoff: number) => void = () => {},
  ) {
    // The row number is the first id's time (uuidV1Seq): no index of its own for ids or the TTL.
    sql.exec(`CREATE TABLE IF NOT EXISTS log (
      seq INTEGER PRIMARY KEY,
      channel TEXT NOT NULL,
      ids TEXT NOT NULL,
      body TEXT NOT NULL,
      mark TEXT
    )`);
    sql.exec('CREATE INDEX IF NOT EXISTS log_channel ON log (channel, seq)');
    sql.exec(`CREATE TABLE IF NOT EXISTS subscriptions (
      user TEXT NOT NULL,
      channel TEXT NOT NULL,
      from_seq INTEGER NOT NULL,
      PRIMARY KEY (user, channel)
    ) WITHOUT ROWID`);
    this.parts = new TextParts(sql, 'log_parts', 'INTEGER');
    this.migrate();
    // Senders whose deliveries arrive out of mark order (the edge's concurrent requests) ask `holds` often.
    this.sql.exec('CREATE INDEX IF NOT EXISTS log_mark ON log (channel, mark) WHERE mark IS NOT NULL');
  }

  /** Streams of the earlier layout (a row per recipient) become rows of their users' own channels. */
  private migrate(): void {
    const columns = this.sql.exec<{ name: string }>("SELECT name FROM pragma_table_info('log')").toArray();
    if (!columns.some((c) => c.name === 'mark')) this.sql.exec('ALTER TABLE log ADD COLUMN mark TEXT');
    if (!columns.some((c) => c.name === 'parts'))
      this.sql.exec('ALTER TABLE log ADD COLUMN parts INTEGER NOT NULL DEFAULT 0');
    const old = this.sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'notifications'").toArray();
    if (old.length === 0) return;
    const rows = this.sql.exec<{ user: string; id: string; payload: string; clients: string | null }>(
      'SELECT user, id, payload, clients FROM notifications ORDER BY seq',
    );
    for (const r of rows) {
      const clients = r.clients === null ? null : (JSON.parse(r.clients) as string[]);
      this.insert(own(r.user), [r.id], { h: '', t: '', to: [[r.user, clients, r.payload]] });
    }
    this.sql.exec('DROP TABLE notifications');
  }

  /** The last row's number: ids made after a restart must come after it, whatever the clock says. */
  lastSeq(): number {
    return this.sql.exec<{ seq: number | null }>('SELECT max(seq) AS seq FROM log').one().seq ?? 0;
  }

  /**
   * Stores a delivery (this object's entries of it) and returns each entry's id. `next` makes ids;
   * a transient delivery gets ids but no row. `audiences`, one per entry, replace the entries'
   * clients where queues and `GET /notifications` see them differently.
   */
  append(d: Delivery, next: () => string, audiences?: readonly Audience[]): string[] {
    const to: StoredEntry[] =
      audiences === undefined ? d.to : d.to.map((e, i) => (audiences[i] === e[1] ? e : [e[0], audiences[i]!, e[2]]));
    if (d.channel === undefined && !d.transient) {
      const byUser = new Map<string, StoredEntry[]>();
      for (const e of to) {
        const list = byUser.get(e[0]);
        if (list === undefined) byUser.set(e[0], [e]);
        else list.push(e);
      }
      const idOf = new Map<StoredEntry, string>();
      for (const [user, entries] of byUser) {
        const ids = entries.map(() => next());
        for (let j = 0; j < entries.length; j++) idOf.set(entries[j]!, ids[j]!);
        this.insert(own(user), ids, { h: d.head, t: d.tail, to: entries }, markOf(d));
      }
      return to.map((e) => idOf.get(e)!);
    }
    // Each entry's index among its user's entries; most deliveries have one entry per user.
    const index = new Array<number>(d.to.length);
    const counts = new Map<string, number>();
    let span = 1;
    for (let i = 0; i < d.to.length; i++) {
      const user = d.to[i]![0];
      const j = counts.get(user) ?? 0;
      counts.set(user, j + 1);
      index[i] = j;
      if (j >= span) span = j + 1;
    }
    const ids = Array.from({ length: span }, next);
    if (!d.transient) {
      const seq = this.insert(d.channel!, ids, { h: d.head, t: d.tail, to }, markOf(d));
      this.subscribe(d.channel!, counts.keys(), seq);
    }
    return index.map((j) => ids[j]!);
  }

  /**
   * Whether a marked delivery (see Delivery.from) was stored here already: the rows of its channel
   * are searched, which only a sender's resend after a failure or a crash asks for.
   */
  holds(d: Delivery): boolean {
    const mark = markOf(d);
    if (mark === null) return false;
    const channel = d.channel ?? own(d.to[0]![0]);
    return (
      this.sql.exec('SELECT 1 FROM log WHERE channel = ? AND mark = ? LIMIT 1', channel, mark).toArray().length > 0
    );
  }

  private insert(channel: string, ids: string[], body: Body, mark: string | null = null): number {
    const seq = uuidV1Seq(ids[0]!);
    const [first, ...rest] = splitText(JSON.stringify(body));
    this.sql.exec(
      'INSERT INTO log (seq, channel, ids, body, mark, parts) VALUES (?, ?, ?, ?, ?, ?)',
      seq,
      channel,
      ids.join(','),
      first!,
      mark,
      rest.length,
    );
    if (rest.length > 0) this.parts.put(seq, rest);
    return seq;
  }

  private subscribe(channel: string, users: Iterable<string>, seq: number): void {
    let subscribed = this.subscribers.get(channel);
    if (subscribed === undefined) {
      subscribed = new Set(
        this.sql
          .exec<{ user: string }>('SELECT user FROM subscriptions WHERE channel = ?', channel)
          .toArray()
          .map((r) => r.user),
      );
      this.subscribers.set(channel, subscribed);
    }
    for (const user of users) {
      if (subscribed.has(user)) continue;
      this.sql.exec(
        'INSERT OR IGNORE INTO subscriptions (user, channel, from_seq) VALUES (?, ?, ?)',
        user,
        channel,
        seq,
      );
      subscribed.add(user);
    }
  }

  /**
   * Drops rows older than the TTL, at most once a minute: a range of the primary key.
   */
  purge(ttlSeconds: number, now: number): void {
    if (now - this.lastPurge < 60_000) return;
    this.lastPurge = now;
    const cutoff = timeSeq(now - ttlSeconds * 1000);
    this.beforePurge(cutoff);
    this.sql.exec('DELETE FROM log WHERE seq < ?', cutoff);
    this.parts.dropBelow(cutoff);
  }

  /** The user's rows from `seq` on (or before it, descending), within the TTL, in stream order. */
  private rows(user: string, seq: number, cutoff: number, descending: boolean, limit = BATCH): LogRow[] {
    const [cmp, order] = descending ? ['<=', 'DESC'] : ['>=', 'ASC'];
    return this.whole(
      this.sql.exec<LogRow>(
        // The rows are chosen on the (channel, seq) index alone, then read: sorting whole rows
        // (a large conversation's hold every local member's entry) would cost their size.
        `SELECT seq, ids, body, parts FROM log WHERE seq IN (
           SELECT seq FROM log WHERE channel = ?1 AND seq ${cmp} ?2 AND seq >= ?3
           UNION ALL
           SELECT l.seq FROM subscriptions s
             JOIN log l ON l.channel = s.channel AND l.seq >= s.from_seq AND l.seq ${cmp} ?2 AND l.seq >= ?3
             WHERE s.user = ?4
           ORDER BY 1 ${order} LIMIT ?5)
         ORDER BY seq ${order}`,
        own(user),
        seq,
        cutoff,
        user,
        limit,
      ),
    );
  }

  /** Rows with their whole bodies (the further parts of long ones joined on). */
  private whole(rows: Iterable<LogRow>): LogRow[] {
    const out: LogRow[] = [];
    for (const row of rows) out.push(row.parts === 0 ? row : { ...row, body: row.body + this.parts.joined(row.seq) });
    return out;
  }

  /**
   * The user's notifications in a row, in a view (see View), visible to `client` (every one of the
   * view without a client, as gundeck does). Only the user's own entries and the shared head and
   * tail are parsed: a row of a large conversation holds every local member's entry, and a reader
   * needs only theirs (see entriesOf).
   */
  private static found(row: LogRow, user: string, client: string | null, view: View): Found[] {
    const entries = entriesOf(row.body, user);
    if (entries.length === 0) return [];
    let shared: Pick<Body, 'h' | 't'> | undefined;
    const ids = row.ids.split(',');
    const out: Found[] = [];
    for (let j = 0; j < entries.length; j++) {
      const [, audience, middle] = entries[j]!;
      const clients = clientsOf(audience, view);
      if (clients === undefined || (client !== null && clients !== null && !clients.includes(client))) continue;
      shared ??= JSON.parse(`${row.body.slice(0, row.body.indexOf(TO_KEY))}}`) as Pick<Body, 'h' | 't'>;
      out.push({ seq: row.seq, j, id: ids[j]!, payloadJson: shared.h + middle + shared.t });
    }
    return out;
  }

  /** Where a notification id is in the user's stream, if it is there (for any of their clients). */
  private locate(user: string, id: string, cutoff: number): { seq: number; j: number } | undefined {
    const at = uuidV1Seq(id);
    if (at < cutoff) return undefined;
    const [row] = this.whole(
      this.sql.exec<LogRow>('SELECT seq, ids, body, parts FROM log WHERE seq <= ? ORDER BY seq DESC LIMIT 1', at),
    );
    const j = row?.ids.split(',').indexOf(id) ?? -1;
    if (row === undefined || j < 0) return undefined;
    return LogStore.found(row, user, null, 'list').some((f) => f.j === j) ? { seq: row.seq, j } : undefined;
  }

  /**
   * The user's notifications for the client whose delivery tags come after `after`, in stream
   * order, at most `limit`, from rows at or after `cutoff`: a queue's entries above its cursor.
   */
  entriesAfter(user: string, client: string, after: number, limit: number, cutoff: number): QueuedEntry[] {
    // The cursor may be inside a row (a user's second entry of it): start at that row.
    const start = this.sql.exec<{ seq: number | null }>('SELECT max(seq) AS seq FROM log WHERE seq <= ?', after).one();
    const batch = Math.min(BATCH, limit);
    const out: QueuedEntry[] = [];
    let from = Math.max(start.seq ?? 0, cutoff);
    for (;;) {
      const rows = this.rows(user, from, cutoff, false, batch);
      for (const row of rows)
        for (const f of LogStore.found(row, user, client, 'queue')) {
          const tag = uuidV1Seq(f.id);
          if (tag <= after) continue;
          out.push({ tag, eventJson: `{"id":"${f.id}","payload":${f.payloadJson}}` });
          if (out.length >= limit) return out;
        }
      if (rows.length < batch) return out;
      from = rows.at(-1)!.seq + 1;
    }
  }

  list(user: string, q: ListQuery): ListResult {
    const now = Date.now();
    this.purge(q.ttlSeconds, now);
    const cutoff = timeSeq(now - q.ttlSeconds * 1000);
    const since = q.since === undefined ? undefined : this.locate(user, q.since, cutoff);
    const found = q.since === undefined || since !== undefined;
    const client = q.client ?? null;
    const page: Found[] = [];
    let from = since?.seq ?? cutoff;
    for (;;) {
      const rows = this.rows(user, from, cutoff, false);
      for (const row of rows) {
        for (const f of LogStore.found(row, user, client, 'list'))
          if (since === undefined || f.seq > since.seq || f.j > since.j) page.push(f);
        if (page.length > q.size) break;
      }
      if (rows.length < BATCH || page.length > q.size) break;
      from = rows.at(-1)!.seq + 1;
    }
    return {
      found,
      notifications: page.slice(0, q.size).map(toNotification),
      hasMore: page.length > q.size,
    } as ListResult;
  }

  /** The user's latest notification for the client; rows older than the TTL count as gone even before the next purge. */
  last(user: string, client: string | undefined, ttlSeconds: number): QueuedNotification | undefined {
    const cutoff = timeSeq(Date.now() - ttlSeconds * 1000);
    let before = Number.MAX_SAFE_INTEGER;
    for (;;) {
      const rows = this.rows(user, before, cutoff, true);
      for (const row of rows) {
        const latest = LogStore.found(row, user, client ?? null, 'list').at(-1);
        if (latest !== undefined) return toNotification(latest);
      }
      if (rows.length < BATCH) return undefined;
      before = rows.at(-1)!.seq - 1;
    }
  }

  get(user: string, id: string, client: string | undefined, ttlSeconds: number): QueuedNotification | undefined {
    const at = this.locate(user, id, timeSeq(Date.now() - ttlSeconds * 1000));
    if (at === undefined) return undefined;
    const [row] = this.whole(this.sql.exec<LogRow>('SELECT seq, ids, body, parts FROM log WHERE seq = ?', at.seq));
    const f = LogStore.found(row!, user, client ?? null, 'list').find((x) => x.j === at.j);
    return f === undefined ? undefined : toNotification(f);
  }
}

function toNotification(f: Found): QueuedNotification {
  return { id: f.id, payload: JSON.parse(f.payloadJson) as QueuedNotification['payload'] };
}
