import { drizzle, type DrizzleD1Database } from 'drizzle-orm/d1';
import { partitionOfSlot, slotOf } from '../../shared/db/partitions.js';
import { groupBy } from '../../shared/group-by.js';

/** The drizzle view of D1; `$client` is the binding itself, for the few statements drizzle cannot batch with results. */
export type Db = DrizzleD1Database & { $client: D1Database };

const instances = new WeakMap<D1Database, Db>();

/** The directory's partitions (DB, DB_1, …), by the binding of partition 0 (see registerDirectory). */
const directories = new WeakMap<D1Database, readonly D1Database[]>();
/** The binding of partition 0 behind each replica view (see replicaOf). */
const replicaMains = new WeakMap<Db, D1Database>();

/** Makes `partitionFor` and `partitionsOf` find these partitions from a view of the first. */
export function registerDirectory(partitions: readonly D1Database[]): void {
  directories.set(partitions[0]!, partitions);
}

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
  const db = drizzle(replicaSessionOf(d1) as unknown as D1Database) as Db;
  replicaMains.set(db, d1);
  return db;
}

/**
 * The view of the directory's partition that holds `key`'s slot, of the same kind as `db` (a view
 * of partition 0: the primary, or a replica's session). Stores of tables spread by a key take
 * their callers' view of the directory and go where the key is.
 */
export function partitionFor(db: Db, key: string): Db {
  const { main, view } = viewOf(db);
  const all = directories.get(main) ?? [main];
  const d1 = all[partitionOfSlot(slotOf(key), all.length)]!;
  return d1 === main ? db : view(d1);
}

/** The keys by the view of the partition that holds each (in the order their partitions first appear). */
export function keysByPartition<K>(db: Db, keys: readonly K[], keyOf: (k: K) => string): Map<Db, K[]> {
  return groupBy(keys, (k) => partitionFor(db, keyOf(k)));
}

/** A query run on every partition of the directory (a scan across keys), its rows together. */
export async function acrossPartitions<R>(db: Db, query: (partition: Db) => Promise<R[]>): Promise<R[]> {
  return (await Promise.all(partitionsOf(db).map(query))).flat();
}

/** Views of every partition of the directory, of the same kind as `db` (scans across keys). */
export function partitionsOf(db: Db): Db[] {
  const { main, view } = viewOf(db);
  return (directories.get(main) ?? [main]).map((d1) => (d1 === main ? db : view(d1)));
}

function viewOf(db: Db): { main: D1Database; view: (d1: D1Database) => Db } {
  const replicaMain = replicaMains.get(db);
  return replicaMain === undefined ? { main: db.$client, view: database } : { main: replicaMain, view: replicaOf };
}

/** The binding a statement of a drizzle view was built on (so a change commits where its statements go). */
function bindingOf(statement: BatchStatement): D1Database | undefined {
  return (statement as { session?: { client?: D1Database } }).session?.client;
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
  await partitionOfStatements(db, statements).batch(statements as unknown as Parameters<Db['batch']>[0]);
}

/**
 * The view of the partition the statements were built for (a batch runs where its statements go;
 * `db` when none says), of `db`'s directory. Statements of several partitions cannot be one batch.
 */
export function partitionOfStatements(db: Db, statements: readonly BatchStatement[]): Db {
  const { main } = viewOf(db);
  if ((directories.get(main) ?? [main]).length === 1) return db; // one database, however its views were made
  const bindings = new Set(statements.map(bindingOf).filter((d1) => d1 !== undefined));
  if (bindings.size > 1) throw new Error('a batch spans partitions of the directory');
  const [d1] = bindings;
  return d1 === undefined || d1 === db.$client ? db : database(d1);
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
  const target = partitionOfStatements(db, statements);
  const built = (
    statements as Array<{ _prepare(): { stmt: D1PreparedStatement; getQuery(): { sql: string; params: unknown[] } } }>
  ).map((s) => {
    const prepared = s._prepare();
    const { sql, params } = prepared.getQuery();
    return params.length > 0 ? prepared.stmt.bind(...params) : target.$client.prepare(sql);
  });
  const results = await target.$client.batch([...built, ...extra]);
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
