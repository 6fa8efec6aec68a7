// LogStore over a Durable Object's SQLite: what test/unit/objects/log-store.test.ts asserts on.
import { LogStore } from '../../src/objects/notifications/log-store.js';
import type { Delivery } from '../../src/shared/notifications/types.js';
import { UuidV1Generator, timeSeq } from '../../src/shared/uuid-v1.js';
import type { Scenario } from './scenarios.js';

const TTL = 3600;
const HOUR = 3_600_000;

/** Ids as a notification object makes them, at `at` (ms) or now. */
function ids(at?: () => number) {
  const gen = new UuidV1Generator();
  return () => gen.next(at?.());
}

/** A delivery whose payload is `[{"n": <middle>}]` for each entry. */
const delivery = (to: Delivery['to'], more: Partial<Delivery> = {}): Delivery => ({
  head: '[{"n":',
  tail: '}]',
  to,
  ...more,
});

const payloads = (store: LogStore, user: string, client?: string) =>
  store.list(user, { size: 100, ttlSeconds: TTL, client }).notifications.map((n) => n.payload[0]);

const rowCount = (sql: SqlStorage) => sql.exec<{ n: number }>('SELECT count(*) AS n FROM log').one().n;

export const logStoreScenarios: Record<string, Scenario> = {
  /** A conversation's delivery is one row for all its recipients; a user's two entries get two ids. */
  'conversation-row': (sql) => {
    const store = new LogStore(sql);
    const given = store.append(
      delivery(
        [
          ['alice', ['a1'], '1'],
          ['alice', ['a2'], '2'],
          ['bob', null, '3'],
        ],
        { channel: 'example.com/conv' },
      ),
      ids(),
    );
    return {
      rows: rowCount(sql),
      distinctIds: new Set(given).size,
      bobSharesAlicesFirstId: given[2] === given[0],
      alice: payloads(store, 'alice'),
      aliceA2: payloads(store, 'alice', 'a2'),
      bob: payloads(store, 'bob'),
    };
  },

  /** Without a channel, each recipient's entries are a row of their own channel. */
  'own-channels': (sql) => {
    const store = new LogStore(sql);
    store.append(
      delivery([
        ['alice', null, '1'],
        ['bob', null, '2'],
      ]),
      ids(),
    );
    return { rows: rowCount(sql), alice: payloads(store, 'alice'), bob: payloads(store, 'bob') };
  },

  /** A user who joins a conversation sees its rows from the first one naming them, not before. */
  'new-member': (sql) => {
    const store = new LogStore(sql);
    const next = ids();
    store.append(delivery([['alice', null, '1']], { channel: 'example.com/conv' }), next);
    store.append(
      delivery(
        [
          ['alice', null, '2'],
          ['bob', null, '2'],
        ],
        { channel: 'example.com/conv' },
      ),
      next,
    );
    store.append(delivery([['alice', null, '3']], { channel: 'example.com/conv' }), next);
    return { alice: payloads(store, 'alice'), bob: payloads(store, 'bob') };
  },

  /** Pages follow `since` and say whether more follow; an id not in the stream is `found: false`. */
  paging: (sql) => {
    const store = new LogStore(sql);
    const next = ids();
    const [first] = store.append(delivery([['alice', null, '1']]), next);
    for (const n of ['2', '3']) store.append(delivery([['alice', null, n]]), next);
    const page = store.list('alice', { since: first, size: 1, ttlSeconds: TTL });
    const rest = store.list('alice', { since: page.notifications[0]!.id, size: 5, ttlSeconds: TTL });
    const unknown = store.list('alice', { since: next(), size: 5, ttlSeconds: TTL });
    return {
      page: [page.found, page.hasMore, page.notifications.map((n) => n.payload[0])],
      rest: [rest.found, rest.hasMore, rest.notifications.map((n) => n.payload[0])],
      unknown: [unknown.found, unknown.notifications.length],
      last: store.last('alice', undefined, TTL)?.payload[0],
      got: store.get('alice', first!, undefined, TTL)?.payload[0],
      notBobs: store.get('bob', first!, undefined, TTL) ?? null,
    };
  },

  /** A transient delivery gets ids but no row; a marked one is found again by its mark. */
  'transient-and-marks': (sql) => {
    const store = new LogStore(sql);
    const typing = delivery([['alice', null, '1']], { channel: 'example.com/conv', transient: true });
    const marked = delivery([['alice', null, '2']], { channel: 'example.com/conv', from: ['conv-object', 7] });
    const transientIds = store.append(typing, ids());
    store.append(marked, ids());
    return {
      transientIds: transientIds.length,
      rows: rowCount(sql),
      holdsMarked: store.holds(marked),
      holdsOtherMark: store.holds({ ...marked, from: ['conv-object', 8] }),
      holdsUnmarked: store.holds(typing),
    };
  },

  /** Rows older than the TTL are dropped (the queues hear the cut-off first), and not listed even before. */
  purge: (sql) => {
    const cutoffs: number[] = [];
    const store = new LogStore(sql, (cutoff) => cutoffs.push(cutoff));
    const now = Date.now();
    store.append(
      delivery([['alice', null, '1']]),
      ids(() => now - 2 * HOUR),
    );
    store.append(
      delivery([['alice', null, '2']]),
      ids(() => now),
    );
    const listed = payloads(store, 'alice'); // listing purges
    return {
      listed,
      rows: rowCount(sql),
      cutoffNearTtl: Math.abs(cutoffs[0]! - timeSeq(Date.now() - TTL * 1000)) < timeSeq(60_000) - timeSeq(0),
    };
  },

  /** Streams of the earlier layout (a row per recipient) move into their users' own channels once. */
  'old-layout': (sql) => {
    const gen = new UuidV1Generator();
    sql.exec('CREATE TABLE notifications (seq INTEGER PRIMARY KEY, user TEXT, id TEXT, payload TEXT, clients TEXT)');
    sql.exec(
      'INSERT INTO notifications (user, id, payload, clients) VALUES (?, ?, ?, ?)',
      'alice',
      gen.next(),
      '[{"n":"1"}]',
      null,
    );
    sql.exec(
      'INSERT INTO notifications (user, id, payload, clients) VALUES (?, ?, ?, ?)',
      'alice',
      gen.next(),
      '[{"n":"2"}]',
      '["a2"]',
    );
    const store = new LogStore(sql);
    const again = new LogStore(sql); // a restart migrates nothing twice
    const oldTable = sql.exec("SELECT 1 FROM sqlite_master WHERE name = 'notifications'").toArray().length;
    return { alice: payloads(again, 'alice'), aliceA1: payloads(store, 'alice', 'a1'), rows: rowCount(sql), oldTable };
  },
};
