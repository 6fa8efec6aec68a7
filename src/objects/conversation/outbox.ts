import type { Delivery } from '../../shared/notifications/types.js';
import { OutboxStore, type PendingSend } from './outbox-store.js';

/** How long a message may stay unsent before the alarm sends it again (after a crash or a failed call). */
const RETRY_MS = 5_000;

/**
 * All or nothing for a conversation's messages: what the conversation object sends to the
 * notification objects is first recorded here (see OutboxStore) and sent again until every object
 * has stored it. Messages in flight in this instance are left alone; anything else in the outbox
 * was cut by a restart or a failed call.
 */
export class Outbox {
  private readonly store: OutboxStore;
  private readonly inFlight = new Set<number>();
  /**
   * Messages stored everywhere, removed with the outbox's next write: one SQLite commit per
   * message instead of two. One a restart finds again is sent again and skipped by its marks.
   */
  private readonly stored: number[] = [];
  private armed = false;

  constructor(
    private readonly ctx: DurableObjectState,
    private readonly source: string,
  ) {
    this.store = new OutboxStore(ctx.storage.sql);
  }

  /**
   * Records a message's deliveries (marking each) before they are sent; returns its number.
   * `writes`, the change the message tells of, are made in the same transaction: both or neither.
   */
  record(byObject: Map<string, Delivery[]>, ttlSeconds: number, writes?: () => void): number {
    this.removeStored();
    const seq =
      writes === undefined
        ? this.store.record(this.source, byObject, ttlSeconds)
        : this.ctx.storage.transactionSync(() => {
            writes();
            return this.store.record(this.source, byObject, ttlSeconds);
          });
    this.inFlight.add(seq);
    this.arm();
    return seq;
  }

  /** A message's calls have all ended: stored everywhere (gone from the outbox), or to be sent again. */
  settled(seq: number, stored: boolean): void {
    this.inFlight.delete(seq);
    if (stored) this.stored.push(seq);
    // Either way the alarm comes: to send it again, or to remove it if no message does first.
    this.arm();
  }

  private removeStored(): void {
    for (const seq of this.stored.splice(0)) this.store.done(seq);
  }

  /** Messages to send again, oldest first, now marked as in flight. */
  takeUnsent(): PendingSend[] {
    this.removeStored();
    const unsent = this.store.pending(this.inFlight);
    for (const p of unsent) this.inFlight.add(p.seq);
    return unsent;
  }

  /** The alarm went off; it is set again while messages remain. */
  alarmFired(): void {
    this.armed = false;
  }

  /** Keeps the alarm set while the outbox holds anything. */
  rearm(): void {
    if (this.stored.length > 0 || this.store.any()) this.arm();
  }

  arm(): void {
    if (this.armed) return;
    this.armed = true;
    void this.ctx.storage.setAlarm(Date.now() + RETRY_MS);
  }
}
