// npm run db:migrate: applies migrations/ to the local D1 database under STATE_DIR.
import { join } from 'node:path';
import { Miniflare } from 'miniflare';
import { persistDir } from './lib/backend.js';
import { d1Admin, d1AdminWorker } from './lib/d1-admin.js';
import { applyMigrations } from './lib/migrations.js';
import { wranglerFacts } from './lib/wrangler-facts.js';

const persist = persistDir(process.env.STATE_DIR ?? '.state');
const { workerOptions, migrations } = await wranglerFacts();
const mf = new Miniflare({
  workers: [{ ...d1AdminWorker(workerOptions.d1Databases), compatibilityDate: workerOptions.compatibilityDate }],
  d1Persist: join(persist, 'd1'),
  port: 0,
});
const applied = await applyMigrations(d1Admin(mf), migrations);
console.log(applied.length > 0 ? `applied: ${applied.join(', ')}` : 'up to date');
await mf.dispose();
