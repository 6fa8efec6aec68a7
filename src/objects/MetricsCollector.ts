import { DurableObject } from 'cloudflare:workers';
import { MetricsRegistry, type MetricsBatch } from '../shared/metrics/registry.js';

interface SeriesRow extends Record<string, SqlStorageValue> {
  series: string;
  data: string;
}

/**
 * The backend's metrics, summed over the isolates that count them: every edge and objects isolate
 * sends what it counted at most once a second (see MetricsFlusher), and `GET /i/metrics` reads the
 * sum here. Kept in storage, so a restart does not reset the counters Prometheus scrapes.
 */
export class MetricsCollector extends DurableObject<Env> {
  private readonly registry = new MetricsRegistry();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    const sql = ctx.storage.sql;
    sql.exec('CREATE TABLE IF NOT EXISTS series (series TEXT PRIMARY KEY, kind TEXT NOT NULL, data TEXT NOT NULL)');
    const stored = (kind: string) =>
      sql.exec<SeriesRow>('SELECT series, data FROM series WHERE kind = ?', kind).toArray();
    this.registry.merge({
      counters: stored('counter').map((r) => [r.series, Number(r.data)]),
      histograms: stored('histogram').map((r) => [r.series, JSON.parse(r.data)]),
    });
  }

  add(batch: MetricsBatch): void {
    const changed = this.registry.merge(batch);
    const sql = this.ctx.storage.sql;
    const put = 'INSERT OR REPLACE INTO series (series, kind, data) VALUES (?, ?, ?)';
    this.ctx.storage.transactionSync(() => {
      for (const [series, value] of changed.counters) sql.exec(put, series, 'counter', String(value));
      for (const [series, h] of changed.histograms) sql.exec(put, series, 'histogram', JSON.stringify(h));
    });
  }

  text(): string {
    return this.registry.text();
  }
}
