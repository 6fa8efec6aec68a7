import { AppendLanes } from '../shared/notifications/append-lanes.js';
import { shardCount, shardName, shardOf } from '../shared/notifications/sharding.js';
import { splitDelivery } from '../shared/notifications/deliveries.js';
import type { Delivery } from '../shared/notifications/types.js';
import type { NotificationShard } from './NotificationShard.js';

/**
 * The notification shards as one caller sees them: the edge (events, stream reads, websockets)
 * and the Conversation object (message fan-out). Every notification is written through `append`, as deliveries (see Delivery).
 * Appends to a shard are ordered and coalesced (see AppendLanes). A stateless request makes its
 * own instance: stubs cannot cross requests there.
 */
export class NotificationShards {
  private readonly count: number;
  private readonly stubs = new Map<number, DurableObjectStub<NotificationShard>>();
  private readonly lanes = new AppendLanes((n, batch, ttl) => this.stub(n).append(batch, ttl));

  constructor(private readonly env: Pick<Env, 'NOTIFICATIONS' | 'NOTIFICATION_SHARDS'>) {
    this.count = shardCount(env.NOTIFICATION_SHARDS);
  }

  /** The shard object holding this user's stream, queues and sockets. */
  of(user: string) {
    return this.stub(shardOf(user, this.count));
  }

  private stub(n: number) {
    let s = this.stubs.get(n);
    if (s === undefined) {
      const ns = this.env.NOTIFICATIONS;
      this.stubs.set(n, (s = ns.get(ns.idFromName(shardName(n)))));
    }
    return s;
  }

  /** Stores deliveries for their recipients: one call per shard that holds some of them, all started now. */
  append(deliveries: Iterable<Delivery>, ttlSeconds: number): Promise<void> {
    const byShard = new Map<number, Delivery[]>();
    for (const d of deliveries)
      for (const [n, part] of splitDelivery(d, (user) => shardOf(user, this.count))) {
        const batch = byShard.get(n);
        if (batch === undefined) byShard.set(n, [part]);
        else batch.push(part);
      }
    return Promise.all([...byShard].map(([n, batch]) => this.lanes.enqueue(n, batch, ttlSeconds))).then(
      () => undefined,
    );
  }
}
