// npm run db:migrate: applies migrations/ to the local D1 database under STATE_DIR.
import { join, resolve } from 'node:path';
import { Miniflare } from 'miniflare';
import { unstable_getMiniflareWorkerOptions } from 'wrangler';
import { ROOT } from './lib/bundle.js';
import { d1Admin, d1AdminWorker } from './lib/d1-admin.js';
import { applyMigrations } from './lib/migrations.js';

const persist = join(resolve(process.env.STATE_DIR ?? '.state'), 'v3');
const { workerOptions } = unstable_getMiniflareWorkerOptions(join(ROOT, 'wrangler.toml'));
const mf = new Miniflare({
  workers: [{ ...d1AdminWorker(workerOptions.d1Databases), compatibilityDate: workerOptions.compatibilityDate }],
  d1Persist: join(persist, 'd1'),
});
const applied = await applyMigrations(d1Admin(mf), join(ROOT, 'migrations'));
console.log(applied.length > 0 ? `applied: ${applied.join(', ')}` : 'up to date');
await mf.dispose();
