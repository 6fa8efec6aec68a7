import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';
import type { RunningFederator } from '../../src/federator-node/federator.js';
import type { ConfigTexts } from '../../src/shared/config/index.js';
import { type BackendOptions, startBackend } from '../../tools/lib/backend.js';
import type { BucketAccess } from '../../tools/lib/bucket.js';
import { startBackendWithSidecar } from '../../tools/lib/sidecar.js';
import { editedTexts, testProfile, type Edit } from './config-files.js';
import { d1Admin } from '../../tools/lib/d1-admin.js';

export interface TestBackend {
  publicUrl: string;
  internalUrl: string;
  /** Every line the worker logged. */
  logs: string[];
  /** Where its D1 database and objects live; pass it to another backend to restart on the same state. */
  stateDir: string;
  /** Reads the backend's D1 database directly (assertions about what is stored). */
  query<T = Record<string, unknown>>(sql: string, ...params: unknown[]): Promise<T[]>;
  /** The same on one of the directory's partitions, by its binding (`DB`, `DB_1`, …). */
  queryIn<T = Record<string, unknown>>(binding: string, sql: string, ...params: unknown[]): Promise<T[]>;
  /** Runs the scheduled jobs now (the cron trigger's work). */
  runScheduled(): Promise<void>;
  /** Its federator, when it was started with one. */
  federator: RunningFederator | undefined;
  stop(): Promise<void>;
}

/** The backend every integration file shares (shipped configuration). */
export function sharedBackend(): { publicUrl: string; internalUrl: string } {
  return { publicUrl: inject('publicUrl'), internalUrl: inject('internalUrl') };
}

/** A backend of its own, with the shipped configuration edited, on free ports and fresh state. */
export async function startEditedBackend(
  edits: Edit[],
  opts: {
    migrate?: boolean;
    stateDir?: string;
    extraWorkers?: Array<Record<string, unknown>>;
    /** The configuration edited (default: the shipped config/). */
    base?: ConfigTexts;
    /** When given, the backend's federator runs too, finding remotes through this DNS server. */
    dns?: { host: string; port: number };
    /** The federator sidecar runs too (it makes the pinned calls to integrations), even without `dns`. */
    sidecar?: boolean;
    /**
     * The federator runs as npm start runs it: on the configured ports unless they are held, asking
     * the DNS server federator.yaml names, served by this backend with these folders' federators.
     */
    serveDns?: string[];
    /** More worker secrets (see BackendOptions.secrets). */
    secrets?: Record<string, string>;
    /** Crash tests: where the workers stop and wait to be killed (see src/shared/fault-point.ts). */
    faultPoint?: string;
    /** Another object store than the tests' one (its bucket is the configuration's). */
    objectStore?: BucketAccess;
    /** The directory's D1 databases (see BackendOptions.partitions). */
    partitions?: number;
  } = {},
): Promise<TestBackend> {
  const root = mkdtempSync(join(inject('tmpRoot'), 'backend-'));
  const stateDir = opts.stateDir ?? join(root, 'state');
  const s3 = opts.objectStore ?? inject('objectStore');
  const logs: string[] = [];
  const options: BackendOptions = {
    port: 0,
    internalPort: 0,
    // Edits come after the test profile, so a file may point its backend elsewhere, or hash otherwise.
    config: editedTexts([...testProfile(s3.endpoint), ...edits], opts.base),
    stateDir,
    bundle: inject('workerBundle'),
    migrate: opts.migrate ?? true,
    objectStore: s3,
    ...(opts.secrets === undefined ? {} : { secrets: opts.secrets }),
    ...(opts.faultPoint === undefined ? {} : { faultPoint: opts.faultPoint }),
    ...(opts.extraWorkers === undefined ? {} : { extraWorkers: opts.extraWorkers }),
    ...(opts.partitions === undefined ? {} : { partitions: opts.partitions }),
    onLog: (l) => logs.push(l),
  };
  // Every test backend's certificates come from one local CA under the test root.
  const backend =
    opts.dns === undefined && opts.sidecar !== true && opts.serveDns === undefined
      ? { ...(await startBackend(options)), federator: undefined }
      : await startBackendWithSidecar(options, {
          root: inject('tmpRoot'),
          dns: opts.dns,
          ...(opts.serveDns === undefined ? {} : { serveDns: opts.serveDns }),
        });
  return {
    publicUrl: backend.publicUrl.origin,
    internalUrl: backend.internalUrl.origin,
    federator: backend.federator,
    logs,
    stateDir,
    query: (sql, ...params) => backend.db.all(sql, ...params),
    queryIn: (binding, sql, ...params) => d1Admin(backend.mf, binding).all(sql, ...params),
    runScheduled: backend.runScheduled,
    stop: backend.stop,
  };
}
