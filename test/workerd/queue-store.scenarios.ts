// QueueStore over a Durable Object's SQLite: what test/unit/objects/queue-store.test.ts asserts on.
import { LogStore } from '../../src/objects/notifications/log-store.js';
import { QueueStore } from '../../src/objects/notifications/queue-store.js';
import type { Delivery } from '../../src/shared/notifications/types.js';
import { UuidV1Generator, timeSeq, uuidV1Seq } from '../../src/shared/uuid-v1.js';
import type { Scenario } from './scenarios.js';

const HOUR = 3_600_000;

/** A notification object's log and queues, with its id generator (at `now()`). */
function shard(sql: SqlStorage, now: () => number = Date.now) {
  const gen = new UuidV1Generator();
  const next = () => gen.next(now());
  const log = new LogStore(sql);
  const queues = new QueueStore(sql, log, () => uuidV1Seq(next()));
  /** Appends `[{"n": n}]` for alice's client a1; its delivery tag. */
  const send = (n: number): number => {
    const d: Delivery = { head: '[{"n":', tail: '}]', to: [['alice', ['a1'], String(n)]] };
    return uuidV1Seq(log.append(d, next)[0]!);
  };
  const pending = () => queues.pending('alice', 'a1', 0).map((e) => JSON.parse(e.eventJson).payload[0].n as number);
  return { log, queues, send, pending };
}

export const queueStoreScenarios: Record<string, Scenario> = {
  /** A queue starts empty: notifications made before it was enabled are not in it. */
  'starts-empty': (sql) => {
    const s = shard(sql);
    s.send(1);
    s.queues.enable('alice', 'a1');
    s.send(2);
    return { pending: s.pending(), has: s.queues.has('alice', 'a1'), other: s.queues.has('alice', 'a2') };
  },

  /** `multiple` acknowledges everything up to the tag. */
  'ack-multiple': (sql) => {
    const s = shard(sql);
    s.queues.enable('alice', 'a1');
    s.send(1);
    const second = s.send(2);
    s.send(3);
    s.queues.ack('alice', 'a1', second, true);
    return { pending: s.pending() };
  },

  /** A single ack ahead of an unacknowledged entry waits; acking that entry moves the cursor over both. */
  'ack-ahead': (sql) => {
    const s = shard(sql);
    s.queues.enable('alice', 'a1');
    const first = s.send(1);
    const second = s.send(2);
    s.queues.ack('alice', 'a1', second, false);
    const waiting = s.pending();
    const kept = sql.exec<{ n: number }>('SELECT count(*) AS n FROM queue_acks').one().n;
    s.queues.ack('alice', 'a1', first, false);
    return {
      waiting,
      kept,
      after: s.pending(),
      keptAfter: sql.exec<{ n: number }>('SELECT count(*) AS n FROM queue_acks').one().n,
    };
  },

  /** A tag above every one handed out acknowledges nothing. */
  'ack-unknown-tag': (sql) => {
    const s = shard(sql);
    s.queues.enable('alice', 'a1');
    const tag = s.send(1);
    s.queues.ack('alice', 'a1', tag + 10 ** 12, true);
    return { pending: s.pending() };
  },

  /** Rows dropped by the TTL move cursors up; a client that had not acknowledged them has missed notifications. */
  expiry: (sql) => {
    let now = Date.now() - 2 * HOUR;
    const s = shard(sql, () => now);
    s.queues.enable('alice', 'a1');
    s.queues.enable('bob', 'b1');
    s.send(1);
    now = Date.now();
    s.send(2);
    s.queues.expire(timeSeq(Date.now() - HOUR));
    return {
      aliceMissed: s.queues.missed('alice', 'a1'),
      bobMissed: s.queues.missed('bob', 'b1'),
      pending: s.pending(),
    };
  },

  /** Dropping a queue forgets its cursor and acks. */
  drop: (sql) => {
    const s = shard(sql);
    s.queues.enable('alice', 'a1');
    s.send(1);
    s.queues.drop('alice', 'a1');
    return { has: s.queues.has('alice', 'a1'), pending: s.pending() };
  },
};
