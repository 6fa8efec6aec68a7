import type { MetricName } from '../../shared/metrics/catalogue.js';
import { MetricsFlusher } from '../../shared/metrics/flusher.js';
import type { MetricsBatch } from '../../shared/metrics/registry.js';

/** This isolate's counts, on their way to the MetricsCollector. */
const flusher = new MetricsFlusher();

const collector = (env: Env) => env.METRICS.get(env.METRICS.idFromName('metrics'));
const sender = (env: Env) => (batch: MetricsBatch) => collector(env).add(batch);

function flushLater(env: Env, ctx: ExecutionContext): void {
  const flush = flusher.flushSoon(sender(env));
  if (flush !== undefined) ctx.waitUntil(flush);
}

/**
 * One served request (`http_request_duration_seconds`), the D1 statements it ran
 * (`svc_d1_queries_total`, of which `svc_d1_replica_queries_total` in sessions a replica may
 * serve) and its calls to objects by class (`svc_object_calls_total`): `handler` is the route's path template without the version prefix, captures as `:name`
 * (wire's form), `N/A` for a path no route has.
 */
export function countRequest(
  env: Env,
  ctx: ExecutionContext,
  r: {
    handler: string;
    method: string;
    status: number;
    seconds: number;
    queries: number;
    replica: number;
    objects: Record<string, number>;
  },
): void {
  const labels = { handler: r.handler, method: r.method, status_code: String(r.status) };
  flusher.registry.observe('http_request_duration_seconds', labels, r.seconds);
  const route = { handler: r.handler, method: r.method };
  flusher.registry.count('svc_d1_queries_total', route, r.queries);
  if (r.replica > 0) flusher.registry.count('svc_d1_replica_queries_total', route, r.replica);
  for (const [objectClass, n] of Object.entries(r.objects))
    flusher.registry.count('svc_object_calls_total', { ...route, class: objectClass }, n);
  flushLater(env, ctx);
}

/** Counts; without a request to keep a flush alive (a queue batch), the caller ends with `flushCounts`. */
export function count(name: MetricName, labels: Record<string, string> = {}, n = 1): void {
  flusher.registry.count(name, labels, n);
}

export const flushCounts = (env: Env) => flusher.flushNow(sender(env));

/** The exposition: this isolate's counts sent first, so what it served is in. */
export async function scrape(env: Env): Promise<string> {
  await flushCounts(env);
  return collector(env).text();
}
