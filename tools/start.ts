// npm start: the whole backend on this machine (workers on miniflare, migrations applied).
import { join, resolve } from 'node:path';
import { formatProblem, loadConfig } from '../src/shared/config/index.js';
import { startBackend } from './lib/backend.js';
import { ensureBucket } from './lib/bucket.js';
import { bundleWorker } from './lib/bundle.js';
import { configDir, readConfigTexts } from './lib/config-dir.js';
import { localObjectStore } from './lib/local-object-store.js';

const port = Number(process.env.PORT ?? 8080);
const internalPort = Number(process.env.INTERNAL_PORT ?? 8081);
const stateDir = resolve(process.env.STATE_DIR ?? '.state');
const dir = configDir();

const checked = loadConfig(readConfigTexts(dir));
for (const w of checked.warnings) console.warn(`warning: ${formatProblem(w)}`);
if (!checked.ok) {
  for (const p of checked.problems) console.error(formatProblem(p));
  console.error(`refusing to start: ${checked.problems.length} configuration problem(s) in ${dir}`);
  process.exit(1);
}

const { objstore } = checked.config.cargohold;
const [scriptPath, store] = await Promise.all([bundleWorker(join(stateDir, 'build')), localObjectStore(objstore, stateDir)]);
if (store.local) await ensureBucket(store, objstore.bucket); // a real store's bucket is the operator's
const backend = await startBackend({ port, internalPort, configDir: dir, stateDir, scriptPath, objectStore: store });
console.log(`config    ${dir}`);
console.log(`state     ${stateDir}`);
console.log(`public    ${backend.publicUrl.origin}   (try ${backend.publicUrl.origin}/api-version)`);
console.log(`internal  ${backend.internalUrl.origin}   (/i/... only)`);
console.log(`assets    ${store.endpoint}   (bucket ${objstore.bucket}${store.local ? ', local radosgw' : ''})`);
console.log('ready');

const stop = async () => {
  await backend.stop();
  await store.stop();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
