import type { Miniflare } from 'miniflare';

const NAME = 'd1-admin';

export interface Statement {
  sql: string;
  params?: unknown[];
}

/**
 * A worker beside the backend, in the same runtime, bound to the same D1 database, reachable only
 * through miniflare's API (no route, no socket): local tools and tests run SQL through it. Miniflare's
 * D1 proxy (`getD1Database`) makes a synchronous round trip for every property read, and those were
 * seen to fail under load; a worker's `fetch` is one async call.
 */
export function d1AdminWorker(d1Databases: unknown): Record<string, unknown> {
  return {
    name: NAME,
    modules: true,
    d1Databases,
    script: `export default {
  async fetch(request, env) {
    const statements = await request.json();
    const prepared = statements.map((s) => env.DB.prepare(s.sql).bind(...(s.params ?? [])));
    try {
      const results = prepared.length === 1 ? [await prepared[0].all()] : await env.DB.batch(prepared);
      return Response.json(results.map((r) => r.results ?? []));
    } catch (err) {
      return Response.json({ error: String(err) }, { status: 500 });
    }
  },
};`,
  };
}

/** SQL on the backend's D1 database; several statements run as one batch (one transaction). */
export function d1Admin(mf: Miniflare) {
  async function run<T>(statements: Statement[]): Promise<T[][]> {
    const worker = await mf.getWorker(NAME);
    const res = await worker.fetch('http://d1-admin/', { method: 'POST', body: JSON.stringify(statements) });
    const body = (await res.json()) as T[][] | { error: string };
    if (!Array.isArray(body)) throw new Error(`D1: ${body.error}`);
    return body;
  }
  return {
    batch: run,
    async all<T = Record<string, unknown>>(sql: string, ...params: unknown[]): Promise<T[]> {
      return (await run<T>([{ sql, params }]))[0] ?? [];
    },
  };
}

export type D1Admin = ReturnType<typeof d1Admin>;
