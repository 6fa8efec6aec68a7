import type { Miniflare } from 'miniflare';

const NAME = 'd1-admin';

export interface Statement {
  sql: string;
  params?: unknown[];
}

/**
 * A worker beside the backend, in the same runtime, bound to the same D1 database, with no route and
 * only a direct loopback socket on an ephemeral port: local tools and tests run SQL through it.
 * Miniflare's proxies (`getD1Database`, and `getWorker(...).fetch`) make synchronous round trips from a
 * helper thread, and those were seen to fail under load (CI); a plain `fetch` to the socket is async.
 */
export function d1AdminWorker(d1Databases: unknown): Record<string, unknown> {
  // `?db=DB_1` runs the statements on another of the directory's partitions (default DB).
  return {
    name: NAME,
    modules: true,
    d1Databases,
    unsafeDirectSockets: [{ host: '127.0.0.1', port: 0 }],
    script: `export default {
  async fetch(request, env) {
    const statements = await request.json();
    const db = env[new URL(request.url).searchParams.get('db') ?? 'DB'];
    const prepared = statements.map((s) => db.prepare(s.sql).bind(...(s.params ?? [])));
    try {
      const results = prepared.length === 1 ? [await prepared[0].all()] : await db.batch(prepared);
      return Response.json(results.map((r) => r.results ?? []));
    } catch (err) {
      return Response.json({ error: String(err) }, { status: 500 });
    }
  },
};`,
  };
}

/**
 * SQL on the backend's D1 database (`binding`: another partition of the directory); several
 * statements run as one batch (one transaction).
 */
export function d1Admin(mf: Miniflare, binding = 'DB') {
  let url: Promise<URL> | undefined;
  async function run<T>(statements: Statement[]): Promise<T[][]> {
    url ??= mf.unsafeGetDirectURL(NAME).then((u) => new URL(`?db=${binding}`, u));
    const res = await fetch(await url, { method: 'POST', body: JSON.stringify(statements) });
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
