import type { Env } from '../env.js';
import { shardCount, shardName, shardOf } from '../../objects/notifications/sharding.js';
import type { ListQuery, ListResult, QueuedNotification, UserNotifications } from '../../objects/notifications/types.js';

/** The RPC surface of a notification shard, typed plainly (the stub's mapped types are too deep for tsc). */
export interface ShardApi {
  append(batch: UserNotifications[], ttlSeconds: number): Promise<void>;
  list(user: string, q: ListQuery): Promise<ListResult>;
  last(user: string, client: string | undefined, ttlSeconds: number): Promise<QueuedNotification | undefined>;
  get(user: string, id: string, client: string | undefined, ttlSeconds: number): Promise<QueuedNotification | undefined>;
  enableQueue(user: string, client: string): Promise<void>;
  dropQueue(user: string, client: string): Promise<void>;
  fetch(req: Request): Promise<Response>;
}

/**
 * The notification shards as one caller sees them. Stubs are kept: calls made on one stub arrive
 * in the order they were made, so a conversation object that keeps its `NotificationShards` can
 * start a message's appends before the previous message's have finished and still have every
 * recipient see the messages in order. (A stateless request makes its own: stubs cannot cross
 * requests there.)
 */
export class NotificationShards {
  private readonly count: number;
  private readonly stubs = new Map<number, ShardApi>();

  constructor(private readonly env: Env) {
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
    return Promise.all([...byShard].map(([n, batch]) => this.stub(n).append(batch, ttlSeconds))).then(() => undefined);
  }
}
