import type { D1Admin } from './d1-admin.js';
import type { Migration } from './wrangler-facts.js';

/** Wrangler's own tracking table, so `wrangler d1 migrations apply --local` agrees with us. */
const TRACKING = `CREATE TABLE IF NOT EXISTS d1_migrations(
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT UNIQUE,
  applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
)`;

/** Applies the migrations not applied yet, each in one transaction (batch). */
export async function applyMigrations(db: D1Admin, migrations: readonly Migration[]): Promise<string[]> {
  await db.all(TRACKING);
  const done = new Set((await db.all<{ name: string }>('SELECT name FROM d1_migrations')).map((r) => r.name));
  const applied: string[] = [];
  for (const { name, statements } of migrations.filter((m) => !done.has(m.name))) {
    await db.batch([
      ...statements.map((sql) => ({ sql })),
      { sql: 'INSERT INTO d1_migrations (name) VALUES (?)', params: [name] },
    ]);
    applied.push(name);
  }
  return applied;
}
