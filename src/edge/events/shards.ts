import { shardCount, shardName, shardOf } from '../../objects/notifications/sharding.js';
import type {
  ListQuery,
  ListResult,
  QueuedNotification,
  UserNotifications,
} from '../../objects/notifications/types.js';

/** The RPC surface of a notification shard, typed plainly (the stub's mapped types are too deep for tsc). */
export interface ShardApi {
  append(batch: UserNotifications[], ttlSeconds: number): Promise<void>;
  list(user: string, q: ListQuery): Promise<ListResult>;
  last(user: string, client: string | undefined, ttlSeconds: number): Promise<QueuedNotification | undefined>;
  get(
    user: string,
    id: string,
    client: string | undefined,
    ttlSeconds: number,
  ): Promise<QueuedNotification | undefined>;
  enableQueue(user: string, client: string): Promise<void>;
  dropQueue(user: string, client: string): Promise<void>;
  fetch(req: Request): Promise<Response>;
}

/**
 * The bindings shards are reached through: a narrow view of the worker's Env (which satisfies it),
 * so that this module also compiles, and is tested, outside workerd.
 */
export interface ShardBindings {
  NOTIFICATIONS: { idFromName(name: string): { toString(): string }; get(id: { toString(): string }): unknown };
  NOTIFICATION_SHARDS?: string | undefined;
}

interface QueuedAppend {
  batch: UserNotifications[];
  ttlSeconds: number;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/** Appends queued for one shard behind the call in flight; `busy` while a call is. */
interface Lane {
  busy: boolean;
  queued: QueuedAppend[];
}

/** At most this many users' notifications in one coalesced call. */
const MAX_USERS_PER_CALL = 4000;

/**
 * The notification shards as one caller sees them. Appends to a shard go one call at a time, in
 * the order they were made: a conversation object that keeps its `NotificationShards` can start
 * a message's appends before the previous message's have finished, and every recipient still sees
 * the messages in order. Appends made while a shard's call is in flight are sent together in the
 * next one, so under load a shard gets one call (one RPC, one transaction) for several messages,
 * and when idle a call goes at once. (A stateless request makes its own: stubs cannot cross
 * requests there.)
 */
export class NotificationShards {
  private readonly count: number;
  private readonly stubs = new Map<number, ShardApi>();
  private readonly lanes = new Map<number, Lane>();

  constructor(private readonly env: ShardBindings) {
    this.count = shardCount(env.NOTIFICATION_SHARDS);
  }

  of(user: string): ShardApi {
    return this.stub(shardOf(user, this.count));
  }

  private stub(n: number): ShardApi {
    let s = this.stubs.get(n);
    if (s === undefined) {
      const ns = this.env.NOTIFICATIONS;
      s = ns.get(ns.idFromName(shardName(n))) as unknown as ShardApi;
      this.stubs.set(n, s);
    }
    return s;
  }

  /** Appends notifications for many users: one call per shard that holds some of them, all started now. */
  append(entries: Iterable<UserNotifications>, ttlSeconds: number): Promise<void> {
    const byShard = new Map<number, UserNotifications[]>();
    for (const e of entries) {
      const n = shardOf(e.user, this.count);
      const batch = byShard.get(n);
      if (batch === undefined) byShard.set(n, [e]);
      else batch.push(e);
    }
    return Promise.all([...byShard].map(([n, batch]) => this.enqueue(n, batch, ttlSeconds))).then(() => undefined);
  }

  private enqueue(n: number, batch: UserNotifications[], ttlSeconds: number): Promise<void> {
    let lane = this.lanes.get(n);
    if (lane === undefined) this.lanes.set(n, (lane = { busy: false, queued: [] }));
    const queued = lane.queued;
    const done = new Promise<void>((resolve, reject) => queued.push({ batch, ttlSeconds, resolve, reject }));
    if (!lane.busy) this.drain(n, lane);
    return done;
  }

  /** Sends what is queued for a shard as one call (same TTL, bounded size), then the rest. */
  private drain(n: number, lane: Lane): void {
    const first = lane.queued[0];
    if (first === undefined) {
      lane.busy = false;
      return;
    }
    lane.busy = true;
    let take = 0;
    let users = 0;
    for (const q of lane.queued) {
      if (q.ttlSeconds !== first.ttlSeconds || (take > 0 && users + q.batch.length > MAX_USERS_PER_CALL)) break;
      users += q.batch.length;
      take++;
    }
    const taken = lane.queued.splice(0, take);
    const batch = taken.length === 1 ? first.batch : taken.flatMap((q) => q.batch);
    // The next call starts before the callers of this one go on.
    this.stub(n)
      .append(batch, first.ttlSeconds)
      .then(
        () => {
          this.drain(n, lane);
          for (const q of taken) q.resolve();
        },
        (err: unknown) => {
          this.drain(n, lane);
          for (const q of taken) q.reject(err);
        },
      );
  }
}
