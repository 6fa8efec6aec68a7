import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startBackend, type Backend } from '../../tools/lib/backend.js';
import { bundleWorker } from '../../tools/lib/bundle.js';
import { editedTexts, objectStoreEndpoint } from '../../tools/lib/config-edit.js';
import type { ObjectStore } from '../../tools/lib/object-store.js';

/**
 * A fresh backend (shipped config, empty state) on free ports, removed on stop; with an object
 * store, cargohold's configuration points at it.
 */
export async function benchBackend(
  o: { objectStore?: ObjectStore } = {},
): Promise<Backend & { stateDir: string; dispose(): Promise<void> }> {
  // Memory-backed when the machine has it: what is measured is the server's work, not this disk's
  // fsync latency (Cloudflare's storage is not a local disk either).
  const root = mkdtempSync(join(process.env.TMPDIR ?? (existsSync('/dev/shm') ? '/dev/shm' : tmpdir()), 'svc-bench-'));
  const bundle = await bundleWorker(join(root, 'build'));
  const stateDir = join(root, 'state');
  const backend = await startBackend({
    port: 0,
    internalPort: 0,
    config: editedTexts(o.objectStore ? [objectStoreEndpoint(o.objectStore.endpoint)] : []),
    ...(o.objectStore ? { objectStore: o.objectStore } : {}),
    stateDir,
    bundle,
    ...(process.env.BENCH_INSPECTOR ? { inspectorPort: Number(process.env.BENCH_INSPECTOR) } : {}),
    onLog: process.env.BENCH_LOGS ? (l) => console.error(l) : () => {},
  });
  return {
    ...backend,
    stateDir,
    dispose: async () => {
      await backend.stop();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
