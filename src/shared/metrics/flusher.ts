import { MetricsRegistry, type MetricsBatch } from './registry.js';

/** An isolate sends what it counted at most this often. */
const FLUSH_MS = 1000;

/**
 * An isolate's metrics on their way to the MetricsCollector: counted in memory (no I/O per
 * request), sent at most once a second by a flush the first count after a send schedules.
 */
export class MetricsFlusher {
  readonly registry = new MetricsRegistry();
  private scheduled = false;
  private lastSent = 0;

  /** A flush, when none is scheduled and something waits: to be kept alive (`waitUntil`). */
  flushSoon(send: (batch: MetricsBatch) => Promise<void>): Promise<void> | undefined {
    if (this.scheduled || this.registry.empty) return undefined;
    this.scheduled = true;
    const delay = Math.max(0, this.lastSent + FLUSH_MS - Date.now());
    return new Promise((resolve) => setTimeout(resolve, delay)).then(() => {
      this.scheduled = false;
      return this.flushNow(send);
    });
  }

  /** Sends what waits now; what fails to go is counted again. */
  async flushNow(send: (batch: MetricsBatch) => Promise<void>): Promise<void> {
    if (this.registry.empty) return;
    this.lastSent = Date.now();
    const batch = this.registry.take();
    try {
      await send(batch);
    } catch {
      this.registry.merge(batch);
    }
  }
}
