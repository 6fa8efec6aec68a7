import type { MetricsBatch } from '../../shared/metrics/registry.js';

interface SeriesRow extends Record<string, SqlStorageValue> {
  series: string;
  data: string;
}

/** The MetricsCollector's sums, one row per series (a counter's value, a histogram's JSON). */
export class SeriesStore {
  constructor(private readonly sql: SqlStorage) {
    sql.exec('CREATE TABLE IF NOT EXISTS series (series TEXT PRIMARY KEY, kind TEXT NOT NULL, data TEXT NOT NULL)');
  }

  all(): MetricsBatch {
    const stored = (kind: string) =>
      this.sql.exec<SeriesRow>('SELECT series, data FROM series WHERE kind = ?', kind).toArray();
    return {
      counters: stored('counter').map((r) => [r.series, Number(r.data)]),
      histograms: stored('histogram').map((r) => [r.series, JSON.parse(r.data)]),
    };
  }

  /** Writes the series' new sums (call inside a transaction). */
  save(sums: MetricsBatch): void {
    const put = 'INSERT OR REPLACE INTO series (series, kind, data) VALUES (?, ?, ?)';
    for (const [series, value] of sums.counters) this.sql.exec(put, series, 'counter', String(value));
    for (const [series, h] of sums.histograms) this.sql.exec(put, series, 'histogram', JSON.stringify(h));
  }
}
