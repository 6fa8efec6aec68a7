import type { Delivery } from './types.js';

/** Sends one batch of appends to one shard (one RPC, one transaction there). */
export type SendAppend = (shard: string, batch: Delivery[], ttlSeconds: number) => Promise<void>;

interface QueuedAppend {
  batch: Delivery[];
  ttlSeconds: number;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/** Appends queued for one shard behind the call in flight; `busy` while a call is. */
interface Lane {
  busy: boolean;
  queued: QueuedAppend[];
}

/** At most this many notifications in one coalesced call. */
const MAX_ENTRIES_PER_CALL = 4000;

/**
 * Appends to a shard go one call at a time, in the order they were made: a caller that keeps its
 * lanes (a conversation object) can start a message's appends before the previous message's have
 * finished, and every recipient still sees the messages in order. Appends made while a shard's
 * call is in flight are sent together in the next one, so under load a shard gets one call for
 * several messages, and when idle a call goes at once.
 */
export class AppendLanes {
  private readonly lanes = new Map<string, Lane>();

  constructor(private readonly send: SendAppend) {}

  enqueue(shard: string, batch: Delivery[], ttlSeconds: number): Promise<void> {
    let lane = this.lanes.get(shard);
    if (lane === undefined) this.lanes.set(shard, (lane = { busy: false, queued: [] }));
    const queued = lane.queued;
    const done = new Promise<void>((resolve, reject) => queued.push({ batch, ttlSeconds, resolve, reject }));
    if (!lane.busy) this.drain(shard, lane);
    return done;
  }

  /** Sends what is queued for a shard as one call (same TTL, bounded size), then the rest. */
  private drain(shard: string, lane: Lane): void {
    const first = lane.queued[0];
    if (first === undefined) {
      lane.busy = false;
      return;
    }
    lane.busy = true;
    let take = 0;
    let entries = 0;
    for (const q of lane.queued) {
      const size = q.batch.reduce((sum, d) => sum + d.to.length, 0);
      if (q.ttlSeconds !== first.ttlSeconds || (take > 0 && entries + size > MAX_ENTRIES_PER_CALL)) break;
      entries += size;
      take++;
    }
    const taken = lane.queued.splice(0, take);
    const batch = taken.length === 1 ? first.batch : taken.flatMap((q) => q.batch);
    // The next call starts before the callers of this one go on.
    this.send(shard, batch, first.ttlSeconds).then(
      () => {
        this.drain(shard, lane);
        for (const q of taken) q.resolve();
      },
      (err: unknown) => {
        this.drain(shard, lane);
        for (const q of taken) q.reject(err);
      },
    );
  }
}
