import { LATENCY_BUCKETS, METRICS, type MetricName } from './catalogue.js';

type Labels = Record<string, string>;

/** A histogram's observations per bucket (not cumulative; the last is above every bound). */
interface Histogram {
  buckets: number[];
  sum: number;
  count: number;
}

/**
 * What a registry hands on to be merged elsewhere (an isolate's counts to the Metrics object):
 * series keyed by their rendered name and labels, `name{a="b"}`.
 */
export interface MetricsBatch {
  counters: Array<[series: string, value: number]>;
  histograms: Array<[series: string, histogram: Histogram]>;
}

const escapeLabel = (v: string) => v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');

function seriesKey(name: MetricName, labels: Labels): string {
  const parts = Object.entries(labels).map(([k, v]) => `${k}="${escapeLabel(v)}"`);
  return `${name}{${parts.join(',')}}`;
}

const nameOf = (series: string) => series.slice(0, series.indexOf('{'));
const labelsOf = (series: string) => series.slice(series.indexOf('{') + 1, -1);
const emptyHistogram = (): Histogram => ({ buckets: new Array(LATENCY_BUCKETS.length + 1).fill(0), sum: 0, count: 0 });

/** Counters and histograms in memory, in Prometheus' text format on demand. */
export class MetricsRegistry {
  private counters = new Map<string, number>();
  private histograms = new Map<string, Histogram>();

  count(name: MetricName, labels: Labels = {}, n = 1): void {
    const key = seriesKey(name, labels);
    this.counters.set(key, (this.counters.get(key) ?? 0) + n);
  }

  /** One observation (seconds) of a histogram. */
  observe(name: MetricName, labels: Labels, value: number): void {
    const key = seriesKey(name, labels);
    let h = this.histograms.get(key);
    if (h === undefined) this.histograms.set(key, (h = emptyHistogram()));
    let i = 0;
    while (i < LATENCY_BUCKETS.length && value > LATENCY_BUCKETS[i]!) i++;
    h.buckets[i]!++;
    h.sum += value;
    h.count++;
  }

  get empty(): boolean {
    return this.counters.size === 0 && this.histograms.size === 0;
  }

  /** Everything recorded since the last take, which starts over. */
  take(): MetricsBatch {
    const batch = { counters: [...this.counters], histograms: [...this.histograms] };
    this.counters = new Map();
    this.histograms = new Map();
    return batch;
  }

  /** Adds another registry's batch; returns the series it changed. */
  merge(batch: MetricsBatch): MetricsBatch {
    for (const [key, n] of batch.counters) this.counters.set(key, (this.counters.get(key) ?? 0) + n);
    for (const [key, add] of batch.histograms) {
      let h = this.histograms.get(key);
      if (h === undefined) this.histograms.set(key, (h = emptyHistogram()));
      for (let i = 0; i < add.buckets.length; i++) h.buckets[i]! += add.buckets[i]!;
      h.sum += add.sum;
      h.count += add.count;
    }
    return {
      counters: batch.counters.map(([key]) => [key, this.counters.get(key)!]),
      histograms: batch.histograms.map(([key]) => [key, this.histograms.get(key)!]),
    };
  }

  /** The exposition (`GET /i/metrics`): each metric's HELP and TYPE, then its series. */
  text(): string {
    const lines: string[] = [];
    for (const name of Object.keys(METRICS) as MetricName[]) {
      const counters = [...this.counters].filter(([key]) => nameOf(key) === name);
      const histograms = [...this.histograms].filter(([key]) => nameOf(key) === name);
      if (counters.length === 0 && histograms.length === 0) continue;
      lines.push(`# HELP ${name} ${METRICS[name].help}`, `# TYPE ${name} ${METRICS[name].type}`);
      for (const [key, value] of counters) lines.push(`${key} ${value}`);
      for (const [key, h] of histograms) {
        const labels = labelsOf(key);
        const sep = labels === '' ? '' : ',';
        let cumulative = 0;
        LATENCY_BUCKETS.forEach((bound, i) => {
          cumulative += h.buckets[i]!;
          lines.push(`${name}_bucket{${labels}${sep}le="${bound}"} ${cumulative}`);
        });
        lines.push(`${name}_bucket{${labels}${sep}le="+Inf"} ${h.count}`);
        lines.push(`${name}_sum{${labels}} ${h.sum}`, `${name}_count{${labels}} ${h.count}`);
      }
    }
    return `${lines.join('\n')}\n`;
  }
}
