import { createServer, type Server } from 'node:http';

/**
 * Stands in for the Cells service: a worker consuming the backend's `cells_events` queue posts
 * every message body to a local HTTP server, where tests await them.
 */
export interface CellsSink {
  /** Pass to startEditedBackend's `extraWorkers`. */
  worker: Record<string, unknown>;
  /** Resolves with the next message matching, or fails after the timeout. */
  next(match: (m: any) => boolean, timeoutMs?: number): Promise<any>;
  received: unknown[];
  close(): Promise<void>;
}

const script = `export default {
  async queue(batch, env) {
    for (const m of batch.messages) {
      await fetch(env.SINK_URL, { method: 'POST', body: JSON.stringify(m.body) });
      m.ack();
    }
  },
};`;

export async function cellsSink(): Promise<CellsSink> {
  const received: unknown[] = [];
  const waiters: Array<{ match: (m: any) => boolean; resolve: (m: unknown) => void }> = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const m = JSON.parse(body) as unknown;
      received.push(m);
      for (const w of waiters.filter((w) => w.match(m))) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(m);
      }
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return {
    worker: {
      name: 'cells-sink',
      modules: true,
      script,
      compatibilityDate: '2026-04-20',
      bindings: { SINK_URL: `http://127.0.0.1:${port}/` },
      queueConsumers: { cells_events: { maxBatchTimeout: 0.05 } },
    },
    received,
    next(match, timeoutMs = 10_000) {
      const seen = received.find(match);
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no matching cells event')), timeoutMs);
        waiters.push({
          match,
          resolve: (m) => {
            clearTimeout(timer);
            resolve(m);
          },
        });
      });
    },
    close: () => new Promise((r) => server.close(() => r())),
  };
}
