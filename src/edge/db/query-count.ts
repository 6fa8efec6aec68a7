import { AsyncLocalStorage } from 'node:async_hooks';
import { partitionBindings } from '../../shared/db/partitions.js';
import { registerDirectory } from './client.js';

/**
 * The D1 statements run so far by the request (or job) being served; a batch counts each
 * statement. `replica`: those run in a session that may read from a replica (see replicaOf).
 * `objects`: the calls made to Durable Objects, by class (see metrics/object-call-count.ts).
 */
interface Counts {
  queries: number;
  replica: number;
  objects: Record<string, number>;
}
const scope = new AsyncLocalStorage<Counts>();

/** Runs `work` with a count of its own (see queriesSoFar). */
export const withQueryCount = <T>(work: () => T): T => scope.run({ queries: 0, replica: 0, objects: {} }, work);

/** How many D1 statements the current request has run (how many a replica may have served), and its object calls. */
export const queriesSoFar = (): Counts => {
  const store = scope.getStore();
  return { queries: store?.queries ?? 0, replica: store?.replica ?? 0, objects: { ...store?.objects } };
};

/** Counts a call the current request made to an object of this class. */
export const addObjectCall = (objectClass: string): void => {
  const store = scope.getStore();
  if (store !== undefined) store.objects[objectClass] = (store.objects[objectClass] ?? 0) + 1;
};

type Add = (n: number) => void;

const add: Add = (n) => {
  const store = scope.getStore();
  if (store !== undefined) store.queries += n;
};

const addReplica: Add = (n) => {
  const store = scope.getStore();
  if (store === undefined) return;
  store.queries += n;
  store.replica += n;
};

/** A statement of the counting binding: it counts when it runs, and hands the binding's own to a batch. */
class CountedStatement {
  constructor(
    readonly inner: D1PreparedStatement,
    private readonly add: Add,
  ) {}
  bind(...values: unknown[]): CountedStatement {
    return new CountedStatement(this.inner.bind(...values), this.add);
  }
  first<T>(column?: string): Promise<T | null> {
    this.add(1);
    return column === undefined ? this.inner.first<T>() : this.inner.first<T>(column);
  }
  run<T>(): Promise<D1Result<T>> {
    this.add(1);
    return this.inner.run<T>();
  }
  all<T>(): Promise<D1Result<T>> {
    this.add(1);
    return this.inner.all<T>();
  }
  raw<T>(options?: { columnNames?: boolean }): Promise<unknown> {
    this.add(1);
    return options?.columnNames === true
      ? this.inner.raw<T>({ columnNames: true })
      : this.inner.raw<T>(options as { columnNames?: false });
  }
}

const own = (s: D1PreparedStatement | CountedStatement): D1PreparedStatement =>
  s instanceof CountedStatement ? s.inner : s;

const counting = new WeakMap<D1Database, D1Database>();

/**
 * The D1 binding, counting the statements each request runs (`svc_d1_queries_total`): the numbers
 * the hot paths' query budgets are checked against. Made once per binding, so drizzle's instance
 * and the prepared queries kept per database stay the same across requests.
 */
function countingD1(d1: D1Database): D1Database {
  let wrapped = counting.get(d1);
  if (wrapped === undefined) {
    const db = {
      prepare: (sql: string) => new CountedStatement(d1.prepare(sql), add),
      batch: (statements: Array<D1PreparedStatement | CountedStatement>) => {
        add(statements.length);
        return d1.batch(statements.map(own));
      },
      exec: (sql: string) => {
        add(1);
        return d1.exec(sql);
      },
      dump: () => d1.dump(),
      withSession: (constraint?: string) => countingSession(d1.withSession(constraint)),
    };
    wrapped = db as unknown as D1Database;
    counting.set(d1, wrapped);
  }
  return wrapped;
}

/** A session of the counting binding: its statements count as ones a replica may serve. */
function countingSession(session: D1DatabaseSession): D1DatabaseSession {
  const counted = {
    prepare: (sql: string) => new CountedStatement(session.prepare(sql), addReplica),
    batch: (statements: Array<D1PreparedStatement | CountedStatement>) => {
      addReplica(statements.length);
      return session.batch(statements.map(own));
    },
    getBookmark: () => session.getBookmark(),
  };
  return counted as unknown as D1DatabaseSession;
}

const envs = new WeakMap<Env, Env>();

/** The bindings with counting D1 bindings in place of the directory's databases (made once per set). */
export function withCountingDb(env: Env): Env {
  let counted = envs.get(env);
  if (counted === undefined) {
    const bindings = env as unknown as Record<string, unknown>;
    const partitions = partitionBindings<D1Database>(bindings, env.DB).map(countingD1);
    registerDirectory(partitions);
    const more = Object.fromEntries(partitions.slice(1).map((d1, i) => [`DB_${i + 1}`, d1]));
    envs.set(env, (counted = { ...env, DB: partitions[0]!, ...more }));
  }
  return counted;
}
