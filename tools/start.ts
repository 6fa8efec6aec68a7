// npm start: the whole backend on this machine (workers on miniflare, migrations applied, the
// federator sidecar: federation when it is on, and the pinned calls to integrations always).
import { join, resolve } from 'node:path';
import { formatProblem, loadConfig } from '../src/shared/config/index.js';
import { startBackend } from './lib/backend.js';
import { ensureBucket } from './lib/bucket.js';
import { bundleWorker } from './lib/bundle.js';
import { configDir, readConfigTexts } from './lib/config-dir.js';
import { editedTexts, objectStoreEndpoint } from './lib/config-edit.js';
import { localObjectStore, type RunningStore } from './lib/local-object-store.js';
import { mlsRemovalKeys } from './lib/mls-removal-keys.js';
import { onShutdown } from './lib/shutdown.js';
import { serveLocalDns, shippedConfigDirs, startSidecar } from './lib/sidecar.js';
import { wranglerFacts } from './lib/wrangler-facts.js';

const port = Number(process.env.PORT ?? 8080);
const internalPort = Number(process.env.INTERNAL_PORT ?? 8081);
const stateDir = resolve(process.env.STATE_DIR ?? '.state');
const dir = configDir();

const texts = readConfigTexts(dir);
const checked = loadConfig(texts);
for (const w of checked.warnings) console.warn(`warning: ${formatProblem(w)}`);
if (!checked.ok) {
  for (const p of checked.problems) console.error(formatProblem(p));
  console.error(`refusing to start: ${checked.problems.length} configuration problem(s) in ${dir}`);
  process.exit(1);
}

try {
  mlsRemovalKeys(checked.config, stateDir, true); // made now if missing; refused here, before anything starts
} catch (err) {
  console.error(`refusing to start: ${(err as Error).message}`);
  process.exit(1);
}

// Whatever has started goes down with this process, however it is asked to stop.
const running: Array<{ stop(): Promise<void> }> = [];
onShutdown(async () => {
  for (const r of running.reverse()) await r.stop();
});

const { objstore } = checked.config.cargohold;
const [bundle, store] = await Promise.all([
  bundleWorker(join(stateDir, 'build')),
  localObjectStore(objstore, stateDir).then((s: RunningStore) => {
    running.push(s);
    return s;
  }),
  wranglerFacts(),
]);
if (store.local) await ensureBucket(store, objstore.bucket); // a real store's bucket is the operator's
// A local store may have moved off the configured port (another backend holds it): tell the worker.
const withStore =
  store.endpoint === objstore.endpoint ? texts : editedTexts([objectStoreEndpoint(store.endpoint)], texts);
// The federator starts first: the worker's configuration names where it really listens.
const sidecar = await startSidecar(withStore);
running.push(sidecar.federator);
const config = sidecar.texts;
// Native push's credentials, when gundeck's `aws` is configured, come from the environment.
// So do the back office's users.
const { SNS_ACCESS_KEY_ID, SNS_SECRET_ACCESS_KEY, STERN_CREDENTIALS } = process.env;
const secrets: Record<string, string> = {
  ...(SNS_ACCESS_KEY_ID && SNS_SECRET_ACCESS_KEY ? { SNS_ACCESS_KEY_ID, SNS_SECRET_ACCESS_KEY } : {}),
  ...(STERN_CREDENTIALS ? { STERN_CREDENTIALS } : {}),
};
const backend = await startBackend({ port, internalPort, config, stateDir, bundle, objectStore: store, secrets });
running.push(backend);
sidecar.workerStarted(backend.internalUrl);
const dns = await serveLocalDns(sidecar, shippedConfigDirs());
if (dns !== undefined) running.push(dns);
console.log(`config    ${dir}`);
console.log(`state     ${stateDir}`);
console.log(`public    ${backend.publicUrl.origin}   (try ${backend.publicUrl.origin}/api-version)`);
console.log(`internal  ${backend.internalUrl.origin}   (/i/... only)`);
console.log(`assets    ${store.endpoint}   (bucket ${objstore.bucket}${store.local ? ', local radosgw' : ''})`);
const { domain, internal, federation: remote, dns: lookups } = sidecar.options;
const { internalUrl, externalPort } = sidecar.federator;
const line = `federator ${domain}: internal ${internal.host}:${internalUrl.port}`;
if (remote === undefined) console.log(`${line}   (federation off: integrations only)`);
else console.log(`${line}, external ${remote.external.host}:${externalPort}`);
if (lookups !== undefined)
  console.log(`dns       ${lookups.host}:${lookups.port}   (SRV _svc-federator._tcp.<domain>)`);
console.log('ready');
