import { AppendLanes } from '../shared/notifications/append-lanes.js';
import { placedShardName, shardCount, shardName, shardOf } from '../shared/notifications/sharding.js';
import { chunkDelivery, splitDelivery } from '../shared/notifications/deliveries.js';
import type { Delivery, RosterAddress } from '../shared/notifications/types.js';
import type { NotificationShard } from './NotificationShard.js';
import { MARKS_PER_SEND, type SendMark } from '../shared/effects/effect-marks.js';
import { placementStore, type PlacementDb } from './notifications/placement-store.js';

/** A sender that records what it sends so that it can send it again (a conversation's outbox). */
export interface DurableSends {
  record(byObject: Map<string, Delivery[]>, ttlSeconds: number, writes?: () => void): number;
  settled(seq: number, stored: boolean): void;
}

/**
 * A group's message (a Delivery with its `roster` address) to the objects that hold the group's
 * clients, each with its own share of the roster's seed and change (see RosterAddress).
 */
export interface GroupSend {
  delivery: Delivery & { roster: RosterAddress };
  objects: ReadonlyMap<string, Pick<RosterAddress, 'seed' | 'change'>>;
}

const isGroupSend = (d: Delivery | GroupSend): d is GroupSend => 'objects' in d;

/** Gives a send's parts their marks (see SendMark). */
function marked(byObject: Map<string, Delivery[]>, [source, first]: SendMark): Map<string, Delivery[]> {
  let k = 0;
  for (const parts of byObject.values())
    for (const d of parts) {
      if (k >= MARKS_PER_SEND) throw new Error('too many parts in one send');
      d.from = [source, first + k++];
    }
  return byObject;
}

/**
 * Each user's notification object, by user id. A user's shard never changes, so what was read once holds
 * for the life of the isolate; the bound only keeps memory in check.
 */
const objectOfUser = new Map<string, string>();
const MAX_REMEMBERED = 200_000;

/**
 * The notification objects as one caller sees them: the edge (events, stream reads, websockets)
 * and the Conversation object (message fan-out). Every notification is written through `append`,
 * as deliveries (see Delivery). Appends to an object are ordered and coalesced (see AppendLanes).
 * A stateless request makes its own instance: stubs cannot cross requests there.
 */
export class NotificationShards {
  private readonly count: number;
  private readonly stubs = new Map<string, DurableObjectStub<NotificationShard>>();
  private readonly lanes = new AppendLanes((name, batch, ttl) => this.stub(name).append(batch, ttl));
  /** Appends waiting for placed shards to be read; later ones wait behind them, to keep their order. */
  private waiting = 0;
  private resolved: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly env: Pick<Env, 'DB' | 'NOTIFICATIONS' | 'NOTIFICATION_SHARDS'>,
    private readonly outbox?: DurableSends,
  ) {
    this.count = shardCount(env.NOTIFICATION_SHARDS);
  }

  /** The statements that place a new account's shard, for the account's own batch. */
  static place(db: PlacementDb, user: string): unknown[] {
    return placementStore.place(db, user);
  }

  /** The object holding this user's stream, queues and sockets. */
  async of(user: string) {
    await this.learn([user]);
    return this.stub(objectOfUser.get(user)!);
  }

  /** The names of the objects holding these users' streams, by user. */
  async objectsOf(users: readonly string[]): Promise<Map<string, string>> {
    await this.learn(users);
    return new Map(users.map((u) => [u, objectOfUser.get(u)!]));
  }

  private stub(name: string) {
    let s = this.stubs.get(name);
    if (s === undefined) {
      const ns = this.env.NOTIFICATIONS;
      this.stubs.set(name, (s = ns.get(ns.idFromName(name))));
    }
    return s;
  }

  /** Reads the placed shards of users not yet known; users without one keep their hashed shard. */
  private async learn(users: readonly string[]): Promise<void> {
    const unknown = users.filter((u) => !objectOfUser.has(u));
    if (unknown.length === 0) return;
    const placed = await placementStore.of(this.env.DB, unknown);
    if (objectOfUser.size + unknown.length > MAX_REMEMBERED) {
      const keep = users.flatMap((u) => (objectOfUser.has(u) ? [[u, objectOfUser.get(u)!] as const] : []));
      objectOfUser.clear();
      for (const [u, name] of keep) objectOfUser.set(u, name);
    }
    for (const u of unknown) {
      const k = placed.get(u);
      objectOfUser.set(u, k === undefined ? shardName(shardOf(u, this.count)) : placedShardName(k));
    }
  }

  /**
   * Stores deliveries for their recipients: one call per object that holds some of them. The
   * calls are queued in the order `append` was called, even when some placed shards must be read first.
   * With `mark`, the send is recorded elsewhere (not in the outbox) and its parts carry that mark.
   */
  append(deliveries: Iterable<Delivery | GroupSend>, ttlSeconds: number, mark?: SendMark): Promise<void> {
    return this.appendWith(deliveries, ttlSeconds, mark);
  }

  /**
   * `append`, with the change the deliveries tell of (`writes`, the conversation's storage) made
   * in the outbox's transaction: the change and its notifications are both kept or neither.
   */
  appendWith(
    deliveries: Iterable<Delivery | GroupSend>,
    ttlSeconds: number,
    mark?: SendMark,
    writes?: () => void,
    committed?: () => Promise<void>,
  ): Promise<void> {
    const list = [...deliveries];
    const known = list.every((d) => isGroupSend(d) || d.to.every((e) => objectOfUser.has(e[0])));
    if (this.waiting === 0 && known) return this.enqueue(list, ttlSeconds, mark, writes, committed);
    const users = [...new Set(list.flatMap((d) => (isGroupSend(d) ? [] : d.to.map((e) => e[0]))))];
    this.waiting++;
    // The enqueue is wrapped so that the next append waits for it to be queued, not stored.
    const queued = this.resolved
      .then(() => this.learn(users))
      .then(() => ({ stored: this.enqueue(list, ttlSeconds, mark, writes, committed) }))
      .finally(() => this.waiting--);
    this.resolved = queued.catch(() => undefined);
    return queued.then((q) => q.stored);
  }

  private enqueue(
    deliveries: Array<Delivery | GroupSend>,
    ttlSeconds: number,
    mark?: SendMark,
    writes?: () => void,
    committed?: () => Promise<void>,
  ): Promise<void> {
    const byObject = new Map<string, Delivery[]>();
    const add = (name: string, parts: Delivery[]) => {
      const batch = byObject.get(name);
      if (batch === undefined) byObject.set(name, parts);
      else batch.push(...parts);
    };
    for (const d of deliveries)
      if (isGroupSend(d))
        for (const [name, share] of d.objects)
          add(name, [{ ...d.delivery, roster: { ...d.delivery.roster, ...share } }]);
      else
        for (const [name, part] of splitDelivery(d, (user) => objectOfUser.get(user)!)) add(name, chunkDelivery(part));
    if (mark !== undefined) return this.send(marked(byObject, mark), ttlSeconds);
    // One object stores the whole send in one transaction: all or nothing without the outbox,
    // unless a change goes with it.
    if (this.outbox === undefined) {
      if (writes !== undefined) throw new Error('a change with deliveries needs an outbox');
      return this.send(byObject, ttlSeconds);
    }
    if (byObject.size === 1 && writes === undefined) return this.send(byObject, ttlSeconds);
    const seq = this.outbox.record(byObject, ttlSeconds, writes);
    if (committed === undefined) return this.resend(seq, byObject, ttlSeconds);
    return committed().then(() => this.resend(seq, byObject, ttlSeconds));
  }

  /** Sends a message the outbox recorded (again, after a crash: objects skip what they stored). */
  resend(seq: number, byObject: Map<string, Delivery[]>, ttlSeconds: number): Promise<void> {
    const stored = this.send(byObject, ttlSeconds);
    stored.then(
      () => this.outbox!.settled(seq, true),
      () => this.outbox!.settled(seq, false),
    );
    return stored;
  }

  private send(byObject: Map<string, Delivery[]>, ttlSeconds: number): Promise<void> {
    return Promise.all([...byObject].map(([name, batch]) => this.lanes.enqueue(name, batch, ttlSeconds))).then(
      () => undefined,
    );
  }
}
