import { drizzle, type DrizzleD1Database } from 'drizzle-orm/d1';

/** The drizzle view of D1; `$client` is the binding itself, for the few statements drizzle cannot batch with results. */
export type Db = DrizzleD1Database & { $client: D1Database };

const instances = new WeakMap<D1Database, Db>();

/**
 * The drizzle view of a D1 binding, made once per binding. No schema is passed: the relational
 * query API is not used, and with a schema drizzle walks every table on each construction
 * (a fifth of an authenticated request's CPU time when it was built per request).
 */
export function database(d1: D1Database): Db {
  let db = instances.get(d1);
  if (db === undefined) {
    db = drizzle(d1);
    instances.set(d1, db);
  }
  return db;
}

/**
 * A view of D1 for reads that may lag the primary by a moment: a session of D1's Sessions API
 * that starts wherever is nearest (`first-unconstrained`; read replication serves it from a
 * replica where the database has them) and then reads monotonically. For other users' profiles
 * and searches, never for what the caller just wrote: those reads stay on `database`, the primary.
 * A session per call, so no request waits on another's bookmark.
 */
export function replicaOf(d1: D1Database): Db {
  return drizzle(replicaSessionOf(d1) as unknown as D1Database);
}

/** The same kind of session, for stores that prepare their statements on the binding themselves. */
export function replicaSessionOf(d1: D1Database): D1DatabaseSession {
  return d1.withSession('first-unconstrained');
}

/** What a store that only reads needs of D1: the binding, or a session of it (replicaSessionOf). */
export type D1Reader = Pick<D1Database, 'prepare'>;

/**
 * A write a store prepared for someone else's batch: opaque to the caller, who only hands it to
 * `runBatch` (so one component's writes can join another's, all or nothing).
 */
export type BatchStatement = unknown;

/** Runs statements as one D1 batch (all or nothing); an empty list is a no-op. */
export async function runBatch(db: Db, statements: readonly BatchStatement[]): Promise<void> {
  if (statements.length === 0) return;
  await db.batch(statements as unknown as Parameters<Db['batch']>[0]);
}

/**
 * Runs drizzle statements and statements of the binding itself (`extra`, last) as one D1 batch,
 * all or nothing; returns the results of `extra`. Built as drizzle's own batch builds them.
 */
export async function runBatchWith(
  db: Db,
  statements: readonly BatchStatement[],
  extra: readonly D1PreparedStatement[],
): Promise<D1Result[]> {
  const built = (
    statements as Array<{ _prepare(): { stmt: D1PreparedStatement; getQuery(): { sql: string; params: unknown[] } } }>
  ).map((s) => {
    const prepared = s._prepare();
    const { sql, params } = prepared.getQuery();
    return params.length > 0 ? prepared.stmt.bind(...params) : db.$client.prepare(sql);
  });
  const results = await db.$client.batch([...built, ...extra]);
  return results.slice(built.length);
}

/**
 * A query built once per database and run again with new placeholder values: building a drizzle
 * query costs more CPU than the D1 round trip of a one-row read, so hot paths prepare theirs.
 */
export function preparedOnce<T>(build: (db: Db) => T): (db: Db) => T {
  const prepared = new WeakMap<Db, T>();
  return (db) => {
    let query = prepared.get(db);
    if (query === undefined) prepared.set(db, (query = build(db)));
    return query;
  };
}
