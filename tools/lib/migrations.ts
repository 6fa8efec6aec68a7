import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { unstable_splitSqlQuery as splitSqlQuery } from 'wrangler';
import type { D1Admin } from './d1-admin.js';

/** Wrangler's own tracking table, so `wrangler d1 migrations apply --local` agrees with us. */
const TRACKING = `CREATE TABLE IF NOT EXISTS d1_migrations(
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT UNIQUE,
  applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
)`;

/** Applies the numbered SQL files of `dir` not applied yet, each in one transaction (batch). */
export async function applyMigrations(db: D1Admin, dir: string): Promise<string[]> {
  await db.all(TRACKING);
  const done = new Set((await db.all<{ name: string }>('SELECT name FROM d1_migrations')).map((r) => r.name));
  const files = readdirSync(dir)
    .filter((f) => /^\d{4}_.*\.sql$/.test(f))
    .sort();
  const applied: string[] = [];
  for (const name of files.filter((f) => !done.has(f))) {
    const statements = splitSqlQuery(readFileSync(join(dir, name), 'utf8')).map((sql) => ({ sql }));
    await db.batch([...statements, { sql: 'INSERT INTO d1_migrations (name) VALUES (?)', params: [name] }]);
    applied.push(name);
  }
  return applied;
}
