import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { Log, LogLevel, Miniflare } from 'miniflare';
import { unstable_getMiniflareWorkerOptions } from 'wrangler';
import { readConfigTexts } from './config-dir.js';
import { d1Admin, d1AdminWorker, type D1Admin } from './d1-admin.js';
import { applyMigrations } from './migrations.js';
import { ROOT } from './bundle.js';
import { localZauthKeys } from './zauth-keys.js';

export interface BackendOptions {
  /** Public listener; 0 picks a free port. */
  port: number;
  /** Internal listener (`/i/...`); 0 picks a free port. */
  internalPort: number;
  configDir: string;
  /** All local state (D1, Durable Objects) lives below this folder. */
  stateDir: string;
  /** The bundled worker (see bundle.ts). */
  scriptPath: string;
  host?: string;
  /** Apply D1 migrations before serving (default true). */
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
}

export interface Backend {
  publicUrl: URL;
  internalUrl: URL;
  mf: Miniflare;
  /** SQL on the backend's D1 database (seeding and assertions). */
  db: D1Admin;
  /** Runs the worker's scheduled jobs now, as the cron trigger would. */
  runScheduled(): Promise<void>;
  stop(): Promise<void>;
}

function lines(stream: Readable, onLine: (l: string) => void): void {
  createInterface({ input: stream }).on('line', onLine);
}

/** The whole backend on miniflare: the worker with its D1 database and Durable Objects. */
export async function startBackend(o: BackendOptions): Promise<Backend> {
  const host = o.host ?? '127.0.0.1';
  const { workerOptions } = unstable_getMiniflareWorkerOptions(join(ROOT, 'wrangler.toml'));
  const persist = join(resolve(o.stateDir), 'v3');
  const onLog = o.onLog ?? ((l: string) => console.log(l));
  const backend = {
    ...workerOptions,
    name: 'svc-backend',
    modules: true,
    scriptPath: o.scriptPath,
    modulesRoot: dirname(o.scriptPath),
    bindings: {
      ...workerOptions.bindings,
      SVC_CONFIG: JSON.stringify(readConfigTexts(o.configDir)),
      ZAUTH_KEYS: await localZauthKeys(o.stateDir),
      ...(o.objectStore === undefined
        ? {}
        : { AWS_ACCESS_KEY_ID: o.objectStore.accessKeyId, AWS_SECRET_ACCESS_KEY: o.objectStore.secretAccessKey }),
    },
    unsafeDirectSockets: [{ host, port: o.internalPort, entrypoint: 'InternalApi', proxy: false }],
  };
  const mf = new Miniflare({
    // The backend first: it serves `port`, and D1/object lookups default to it.
    workers: [backend, ...(o.extraWorkers ?? []), { ...d1AdminWorker(workerOptions.d1Databases), compatibilityDate: workerOptions.compatibilityDate }],
    host,
    port: o.port,
    d1Persist: join(persist, 'd1'),
    durableObjectsPersist: join(persist, 'do'),
    queuesPersist: join(persist, 'queues'),
    ...(o.inspectorPort === undefined ? {} : { inspectorPort: o.inspectorPort }),
    cf: false, // no network here: use miniflare's placeholder cf object
    log: new Log(process.env.MINIFLARE_LOG === 'debug' ? LogLevel.DEBUG : LogLevel.WARN),
    handleRuntimeStdio: (stdout: Readable, stderr: Readable) => {
      lines(stdout, onLog);
      lines(stderr, onLog);
    },
  } as ConstructorParameters<typeof Miniflare>[0]);
  const publicUrl = await mf.ready;
  const db = d1Admin(mf);
  if (o.migrate ?? true) await applyMigrations(db, join(ROOT, 'migrations'));
  const internalUrl = await mf.unsafeGetDirectURL(undefined, 'InternalApi');
  const runScheduled = async () => {
    const result = await (await mf.getWorker()).scheduled();
    if (result.outcome !== 'ok') throw new Error(`scheduled jobs ended with ${result.outcome}`);
  };
  return { publicUrl, internalUrl, mf, db, runScheduled, stop: () => mf.dispose() };
}
