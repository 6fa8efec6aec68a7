import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';
import { startBackend } from '../../tools/lib/backend.js';
import { editedTexts, objectStoreEndpoint, type Edit } from './config-files.js';

export interface TestBackend {
  publicUrl: string;
  internalUrl: string;
  /** Every line the worker logged. */
  logs: string[];
  /** Where its D1 database and objects live; pass it to another backend to restart on the same state. */
  stateDir: string;
  /** Reads the backend's D1 database directly (assertions about what is stored). */
  query<T = Record<string, unknown>>(sql: string, ...params: unknown[]): Promise<T[]>;
  /** Runs the scheduled jobs now (the cron trigger's work). */
  runScheduled(): Promise<void>;
  stop(): Promise<void>;
}

/** The backend every integration file shares (shipped configuration). */
export function sharedBackend(): { publicUrl: string; internalUrl: string } {
  return { publicUrl: inject('publicUrl'), internalUrl: inject('internalUrl') };
}

/** A backend of its own, with the shipped configuration edited, on free ports and fresh state. */
export async function startEditedBackend(
  edits: Edit[],
  opts: { migrate?: boolean; stateDir?: string; extraWorkers?: Array<Record<string, unknown>> } = {},
): Promise<TestBackend> {
  const root = mkdtempSync(join(inject('tmpRoot'), 'backend-'));
  const stateDir = opts.stateDir ?? join(root, 'state');
  const s3 = inject('objectStore');
  const logs: string[] = [];
  const backend = await startBackend({
    port: 0,
    internalPort: 0,
    // Edits come after the test store's endpoint, so a file may point its backend elsewhere.
    config: editedTexts([objectStoreEndpoint(s3.endpoint), ...edits]),
    stateDir,
    bundle: inject('workerBundle'),
    migrate: opts.migrate ?? true,
    objectStore: s3,
    ...(opts.extraWorkers === undefined ? {} : { extraWorkers: opts.extraWorkers }),
    onLog: (l) => logs.push(l),
  });
  return {
    publicUrl: backend.publicUrl.origin,
    internalUrl: backend.internalUrl.origin,
    logs,
    stateDir,
    query: (sql, ...params) => backend.db.all(sql, ...params),
    runScheduled: backend.runScheduled,
    stop: backend.stop,
  };
}
