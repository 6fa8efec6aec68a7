import { drizzle } from 'drizzle-orm/d1';
import * as schema from './schema.js';

export type Db = ReturnType<typeof database>;

export function database(d1: D1Database) {
  return drizzle(d1, { schema });
}

/** Runs statements as one D1 batch (all or nothing); an empty list is a no-op. */
export async function runBatch(db: Db, statements: readonly unknown[]): Promise<void> {
  if (statements.length === 0) return;
  await db.batch(statements as unknown as Parameters<Db['batch']>[0]);
}
