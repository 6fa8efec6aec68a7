import { Pool } from 'undici';
import { percentile } from './backend.js';

export interface LoadResult {
  requests: number;
  perSecond: number;
  p50: number;
  p99: number;
  /** Share of one core the load client used meanwhile: near 100% would mean the client is the limit. */
  clientCpu: number;
  /** Responses with another status than expected. */
  errors: number;
}

/**
 * A closed loop of `connections` keep-alive connections, each sending the next request when the
 * last one is answered, for `seconds` after a warm-up. Measures requests per second and latency.
 */
export async function load(
  origin: string,
  path: string,
  o: {
    connections: number;
    seconds: number;
    warmupSeconds?: number;
    headers?: Record<string, string>;
    status?: number;
  },
): Promise<LoadResult> {
  const pool = new Pool(origin, { connections: o.connections, pipelining: 1 });
  const expected = o.status ?? 200;
  const run = async (ms: number, record: boolean) => {
    const latencies: number[] = [];
    let errors = 0;
    const until = performance.now() + ms;
    await Promise.all(
      Array.from({ length: o.connections }, async () => {
        while (performance.now() < until) {
          const start = performance.now();
          const res = await pool.request({ method: 'GET', path, headers: o.headers ?? {} });
          await res.body.dump();
          if (res.statusCode !== expected) errors++;
          if (record) latencies.push(performance.now() - start);
        }
      }),
    );
    return { latencies, errors };
  };
  await run((o.warmupSeconds ?? 1) * 1000, false);
  const cpu = process.cpuUsage();
  const wall = performance.now();
  const { latencies, errors } = await run(o.seconds * 1000, true);
  const elapsed = performance.now() - wall;
  const used = process.cpuUsage(cpu);
  await pool.close();
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    perSecond: latencies.length / (elapsed / 1000),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    clientCpu: (used.user + used.system) / 1000 / elapsed,
    errors,
  };
}
