import { DurableObject } from 'cloudflare:workers';
import { MetricsRegistry, type MetricsBatch } from '../shared/metrics/registry.js';
import { SeriesStore } from './metrics/series-store.js';

/**
 * The backend's metrics, summed over the isolates that count them: every edge and objects isolate
 * sends what it counted at most once a second (see MetricsFlusher), and `GET /i/metrics` reads the
 * sum here. Kept in storage, so a restart does not reset the counters Prometheus scrapes.
 */
export class MetricsCollector extends DurableObject<Env> {
  private readonly registry = new MetricsRegistry();
  private readonly store: SeriesStore;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.store = new SeriesStore(ctx.storage.sql);
    this.registry.merge(this.store.all());
  }

  add(batch: MetricsBatch): void {
    const sums = this.registry.merge(batch);
    this.ctx.storage.transactionSync(() => this.store.save(sums));
  }

  text(): string {
    return this.registry.text();
  }
}
