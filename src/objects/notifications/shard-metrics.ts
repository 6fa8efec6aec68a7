import { MetricsFlusher } from '../../shared/metrics/flusher.js';

/** What one append did, counted for the metrics. */
export interface AppendCounts {
  stored: number;
  transient: number;
  awaitFrames: number;
  eventsFrames: number;
  pushes: number;
  /** The binding of the native push queue the pushes went to (NATIVE_PUSH_1 for native_push_1). */
  pushQueue?: string;
}

export const noCounts = (): AppendCounts => ({ stored: 0, transient: 0, awaitFrames: 0, eventsFrames: 0, pushes: 0 });

/** This objects isolate's counts, on their way to the MetricsCollector. */
const flusher = new MetricsFlusher();

export function countAppend(env: Env, ctx: DurableObjectState, c: AppendCounts): void {
  const r = flusher.registry;
  if (c.stored > 0) r.count('svc_notifications_appended_total', { transient: 'false' }, c.stored);
  if (c.transient > 0) r.count('svc_notifications_appended_total', { transient: 'true' }, c.transient);
  if (c.awaitFrames > 0) r.count('svc_websocket_deliveries_total', { protocol: 'await' }, c.awaitFrames);
  if (c.eventsFrames > 0) r.count('svc_websocket_deliveries_total', { protocol: 'events' }, c.eventsFrames);
  if (c.pushes > 0) r.count('svc_native_pushes_queued_total', { queue: (c.pushQueue ?? '').toLowerCase() }, c.pushes);
  const flush = flusher.flushSoon((batch) => env.METRICS.get(env.METRICS.idFromName('metrics')).add(batch));
  if (flush !== undefined) ctx.waitUntil(flush);
}
