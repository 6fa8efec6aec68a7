import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { Log, LogLevel, Miniflare, type MiniflareOptions } from 'miniflare';
import { type ConfigTexts, loadConfig } from '../../src/shared/config/index.js';
import type { WorkerBundle } from './bundle.js';
import { d1Admin, d1AdminWorker, type D1Admin } from './d1-admin.js';
import { deathSignalWrapper } from './death-signal.js';
import { applyMigrations } from './migrations.js';
import { wranglerFacts } from './wrangler-facts.js';
import { localZauthKeys } from './zauth-keys.js';
import { mlsRemovalKeys } from './mls-removal-keys.js';
import { configFiles } from './config-files.js';
import type { TlsFiles } from './tls-env.js';
import { RESTART_CRON } from '../../src/shared/restart.js';

export interface BackendOptions {
  /** Public listener; 0 picks a free port. */
  port: number;
  /** Internal listener (`/i/...`); 0 picks a free port. */
  internalPort: number;
  /** The component files (file name to YAML text), as the worker receives them in SVC_CONFIG. */
  config: ConfigTexts;
  /** All local state (D1, Durable Objects) lives below this folder. */
  stateDir: string;
  /** The bundled workers (see bundle.ts). */
  bundle: WorkerBundle;
  host?: string;
  /** Apply D1 migrations before serving (default true); no listener opens before they are applied. */
  migrate?: boolean;
  /** Receives every line the worker logs. */
  onLog?: (line: string) => void;
  /** Opens the V8 inspector on this port (profiling the benchmarks). */
  inspectorPort?: number;
  /**
   * More workers in the same runtime, after the backend: tests use one to stand in for what
   * consumes the backend's queues (the Cells service).
   */
  extraWorkers?: Array<Record<string, unknown>>;
  /** Credentials of the bucket cargohold's configuration names (the worker's secrets). */
  objectStore?: { accessKeyId: string; secretAccessKey: string };
  /** More secrets of the worker (SNS_ACCESS_KEY_ID, SNS_SECRET_ACCESS_KEY for native push). */
  secrets?: Record<string, string>;
  /** The public listener serves https (and wss) with this certificate; the internal one stays plain. */
  tls?: TlsFiles;
  /** Crash tests: where the workers stop and wait to be killed (see src/shared/fault-point.ts). */
  faultPoint?: string;
  /**
   * The directory's D1 databases: `DB` as wrangler.toml declares it, and as many more (`DB_1`, …)
   * beside it to make this many partitions (default 1).
   */
  partitions?: number;
}

export interface Backend {
  publicUrl: URL;
  internalUrl: URL;
  mf: Miniflare;
  /** SQL on the backend's D1 database (seeding and assertions). */
  db: D1Admin;
  /** Runs the worker's scheduled jobs now, as the cron trigger would (`cron`: which trigger). */
  runScheduled(cron?: string): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Has miniflare start workerd with a parent-death signal, so the runtime goes down with this
 * process even when it is killed outright (miniflare's own exit hook needs a chance to run).
 */
function workerdDiesWithUs(): void {
  if (process.env.MINIFLARE_WORKERD_PATH !== undefined) return;
  // The workerd binary miniflare itself would run.
  const workerd = (createRequire(createRequire(import.meta.url).resolve('miniflare'))('workerd') as { default: string })
    .default;
  const dir = mkdtempSync(join(tmpdir(), 'svc-workerd-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  process.env.MINIFLARE_WORKERD_PATH = deathSignalWrapper(workerd, dir);
}

function lines(stream: Readable, onLine: (l: string) => void): void {
  createInterface({ input: stream }).on('line', onLine);
}

/** MLS_REMOVAL_KEYS when the configuration enables MLS (keys under the state folder are made on first use). */
function removalKeysBinding(texts: ConfigTexts, stateDir: string): { MLS_REMOVAL_KEYS?: string } {
  const loaded = loadConfig(texts);
  const keys = loaded.ok ? mlsRemovalKeys(loaded.config, stateDir, true) : undefined;
  return keys === undefined ? {} : { MLS_REMOVAL_KEYS: keys };
}

/** SVC_FILES: the files the configuration names (missing ones under the state folder are made on first use). */
function configFilesBinding(texts: ConfigTexts, stateDir: string): { SVC_FILES?: string } {
  const loaded = loadConfig(texts);
  return loaded.ok ? { SVC_FILES: configFiles(loaded.config, stateDir, true) } : {};
}

/**
 * Where the runtime keeps D1, the objects and the queues below a state folder. The layout's version
 * moves when state kept by an older one can no longer be read (v4: the objects moved to their own
 * script, whose name says where miniflare keeps their storage).
 */
export function persistDir(stateDir: string): string {
  return join(resolve(stateDir), 'v4');
}

/**
 * Starts the runtime, again (up to 3 times) when a port it let the system pick was taken meanwhile:
 * miniflare restarts workerd on the ports it was first given when it is handed the backend after
 * the migrations, and another process may bind one in between. Ports asked for by number fail at once.
 */
export async function startRuntime(
  o: Pick<BackendOptions, 'port' | 'internalPort'>,
  start: () => Promise<Miniflare>,
): Promise<Miniflare> {
  for (let attempt = 1; ; attempt++) {
    let mf: Miniflare | undefined;
    try {
      mf = await start();
      await mf.ready;
      return mf;
    } catch (err) {
      await mf?.dispose().catch(() => {});
      const picked = o.port === 0 && o.internalPort === 0;
      if (!picked || attempt === 3 || (err as { code?: unknown }).code !== 'ERR_ADDRESS_IN_USE') throw err;
    }
  }
}

/** The D1 bindings with `DB_1` … `DB_{count-1}` beside `DB`, each its own database. */
function partitioned(d1Databases: unknown, count: number): Record<string, { id: string }> {
  const main = (d1Databases as Record<string, { id: string }>).DB!;
  const more = Array.from({ length: count - 1 }, (_, i) => [`DB_${i + 1}`, { id: `${main.id}-${i + 1}` }]);
  return { ...(d1Databases as Record<string, { id: string }>), ...Object.fromEntries(more) };
}

/**
 * The whole backend on miniflare: the worker with its D1 database and Durable Objects. With
 * `migrate`, the runtime first holds only the D1 admin worker and no listener of the backend, and
 * is given the backend once the migrations are applied: nothing is served from a half-made schema.
 */
export async function startBackend(o: BackendOptions): Promise<Backend> {
  const host = o.host ?? '127.0.0.1';
  workerdDiesWithUs();
  const { workerOptions, objectsOptions, migrations } = await wranglerFacts();
  const persist = persistDir(o.stateDir);
  const onLog = o.onLog ?? ((l: string) => console.log(l));
  const removalKeys = removalKeysBinding(o.config, o.stateDir);
  const faultPoint = o.faultPoint === undefined ? {} : { FAULT_POINT: o.faultPoint };
  const d1Databases = partitioned(workerOptions.d1Databases, o.partitions ?? 1);
  const backend = {
    ...workerOptions,
    d1Databases,
    name: 'svc-backend',
    // One module, named: miniflare need not parse the 5 MB bundle to find its imports (that parse
    // kept ~100 MB in this long-lived process).
    modules: [{ type: 'ESModule', path: o.bundle.edge }],
    modulesRoot: dirname(o.bundle.edge),
    bindings: {
      ...workerOptions.bindings,
      SVC_CONFIG: JSON.stringify(o.config),
      ZAUTH_KEYS: await localZauthKeys(o.stateDir),
      ...removalKeys,
      ...configFilesBinding(o.config, o.stateDir),
      ...(o.objectStore === undefined
        ? {}
        : { AWS_ACCESS_KEY_ID: o.objectStore.accessKeyId, AWS_SECRET_ACCESS_KEY: o.objectStore.secretAccessKey }),
      ...o.secrets,
      ...faultPoint,
    },
    unsafeDirectSockets: [{ host, port: o.internalPort, entrypoint: 'InternalApi', proxy: false }],
  };
  const objects = {
    ...objectsOptions,
    d1Databases,
    name: 'svc-objects',
    modules: [{ type: 'ESModule', path: o.bundle.objects }],
    modulesRoot: dirname(o.bundle.objects),
    bindings: { ...objectsOptions.bindings, ...removalKeys, ...faultPoint },
  };
  const admin = { ...d1AdminWorker(d1Databases), compatibilityDate: workerOptions.compatibilityDate };
  const runtime = {
    host,
    d1Persist: join(persist, 'd1'),
    durableObjectsPersist: join(persist, 'do'),
    queuesPersist: join(persist, 'queues'),
    ...(o.inspectorPort === undefined ? {} : { inspectorPort: o.inspectorPort }),
    ...(o.tls === undefined ? {} : { https: true, httpsCertPath: o.tls.certPath, httpsKeyPath: o.tls.keyPath }),
    cf: false, // no network here: use miniflare's placeholder cf object
    log: new Log(process.env.MINIFLARE_LOG === 'debug' ? LogLevel.DEBUG : LogLevel.WARN),
    handleRuntimeStdio: (stdout: Readable, stderr: Readable) => {
      lines(stdout, onLog);
      lines(stderr, onLog);
    },
  };
  const serving = {
    ...runtime,
    // The backend first: it serves `port`, and D1/object lookups default to it.
    workers: [backend, objects, ...(o.extraWorkers ?? []), admin],
    port: o.port,
  } as MiniflareOptions;
  const mf = await startRuntime(o, async () => {
    if (!(o.migrate ?? true)) return new Miniflare(serving);
    const migrating = new Miniflare({ ...runtime, workers: [admin], port: 0 } as MiniflareOptions);
    try {
      for (const binding of Object.keys(d1Databases)) await applyMigrations(d1Admin(migrating, binding), migrations);
      await migrating.setOptions(serving);
    } catch (err) {
      await migrating.dispose().catch(() => {});
      throw err;
    }
    return migrating;
  });
  const publicUrl = await mf.ready;
  const internalUrl = await mf.unsafeGetDirectURL(undefined, 'InternalApi');
  const runScheduled = async (cron?: string) => {
    const result = await (await mf.getWorker()).scheduled(cron === undefined ? {} : { cron });
    if (result.outcome !== 'ok') throw new Error(`scheduled jobs ended with ${result.outcome}`);
  };
  // What the last run left pending (it may have been killed) is carried out before anything new;
  // a database without its tables (never migrated) has nothing pending.
  await runScheduled(RESTART_CRON).catch((err: unknown) => onLog(`restart sweep failed: ${String(err)}`));
  return { publicUrl, internalUrl, mf, db: d1Admin(mf), runScheduled, stop: () => mf.dispose() };
}
