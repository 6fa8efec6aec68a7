// npm start: the whole backend on this machine (workers on miniflare, migrations applied, the
// federator sidecar: federation when it is on, and the pinned calls to integrations always).
import { join, resolve } from 'node:path';
import { browserOrigins } from '../src/shared/config/browser-origins.js';
import { formatProblem, loadConfig } from '../src/shared/config/index.js';
import { startBackend } from './lib/backend.js';
import { allowBrowserDownloads, bucketCorsOrigins, ensureBucket } from './lib/bucket.js';
import { bundleWorker } from './lib/bundle.js';
import { collectStartUpGarbage } from './lib/collect-start-up.js';
import { configDir, readConfigTexts } from './lib/config-dir.js';
import { downloadEndpoint, type Edit, editedTexts, objectStoreEndpoint } from './lib/config-edit.js';
import { localObjectStore, type RunningStore } from './lib/local-object-store.js';
import { mlsRemovalKeys } from './lib/mls-removal-keys.js';
import { onShutdown } from './lib/shutdown.js';
import { shippedConfigDirs, startSidecar } from './lib/sidecar.js';
import { type TlsFiles, tlsFromEnv } from './lib/tls-env.js';
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

let tls: TlsFiles | undefined;
try {
  tls = tlsFromEnv();
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
  localObjectStore(objstore, stateDir, tls).then((s: RunningStore) => {
    running.push(s);
    return s;
  }),
  wranglerFacts(),
]);
// A real store's bucket, and what browsers may read of it, are the operator's.
if (store.local) {
  await ensureBucket(store, objstore.bucket);
  const origins = bucketCorsOrigins(browserOrigins(checked.config.nginz.nginx_conf));
  await allowBrowserDownloads(store, objstore.bucket, origins);
}
// A local store may have moved off the configured port (another backend holds it), and over TLS
// serves downloads on its https port unless the configuration names a download host: tell the worker.
const storeEdits: Edit[] = [];
if (store.endpoint !== objstore.endpoint) storeEdits.push(objectStoreEndpoint(store.endpoint));
if (store.downloadEndpoint !== undefined && objstore.downloadEndpoint === undefined && !objstore.multiIngress)
  storeEdits.push(downloadEndpoint(store.downloadEndpoint));
const withStore = storeEdits.length === 0 ? texts : editedTexts(storeEdits, texts);
// The federator (and the DNS server it asks) start first: the worker's configuration names where
// they really listen.
const sidecar = await startSidecar(withStore, { serveDns: shippedConfigDirs() });
running.push(sidecar);
const config = sidecar.texts;
// Native push's credentials, when gundeck's `aws` is configured, come from the environment.
// So do the back office's users.
const { SNS_ACCESS_KEY_ID, SNS_SECRET_ACCESS_KEY, STERN_CREDENTIALS } = process.env;
const secrets: Record<string, string> = {
  ...(SNS_ACCESS_KEY_ID && SNS_SECRET_ACCESS_KEY ? { SNS_ACCESS_KEY_ID, SNS_SECRET_ACCESS_KEY } : {}),
  ...(STERN_CREDENTIALS ? { STERN_CREDENTIALS } : {}),
};
const backend = await startBackend({
  port,
  internalPort,
  config,
  stateDir,
  bundle,
  objectStore: store,
  secrets,
  ...(tls === undefined ? {} : { tls }),
  // Chrome DevTools' inspector on the workers (profiling): off unless asked for.
  ...(process.env.INSPECTOR_PORT ? { inspectorPort: Number(process.env.INSPECTOR_PORT) } : {}),
});
running.push(backend);
sidecar.workerStarted(backend.internalUrl);
console.log(`config    ${dir}`);
console.log(`state     ${stateDir}`);
console.log(`public    ${backend.publicUrl.origin}   (try ${backend.publicUrl.origin}/api-version)`);
console.log(`internal  ${backend.internalUrl.origin}   (/i/... only)`);
const downloads = store.downloadEndpoint === undefined ? '' : `, browser downloads ${store.downloadEndpoint}`;
console.log(
  `assets    ${store.endpoint}   (bucket ${objstore.bucket}${store.local ? ', local radosgw' : ''}${downloads})`,
);
const { domain, internal, federation: remote, dns: lookups } = sidecar.options;
const { internalUrl, externalPort } = sidecar.federator;
const line = `federator ${domain}: internal ${internal.host}:${internalUrl.port}`;
if (remote === undefined) console.log(`${line}   (federation off: integrations only)`);
else console.log(`${line}, external ${remote.external.host}:${externalPort}`);
if (lookups !== undefined)
  console.log(`dns       ${lookups.host}:${lookups.port}   (SRV _svc-federator._tcp.<domain>)`);
collectStartUpGarbage();
console.log('ready');
