import { drizzle, type DrizzleD1Database } from 'drizzle-orm/d1';

const instances = new WeakMap<D1Database, DrizzleD1Database>();

/** The drizzle view of the D1 binding (over the schema both workers share, `shared/db/schema.ts`), made once. */
export function database(d1: D1Database): DrizzleD1Database {
  let db = instances.get(d1);
  if (db === undefined) instances.set(d1, (db = drizzle(d1)));
  return db;
}
