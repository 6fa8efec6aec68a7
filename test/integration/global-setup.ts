import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { ensureBucket } from '../../tools/lib/bucket.js';
import { bundleWorker, type WorkerBundle } from '../../tools/lib/bundle.js';
import { startLocalDns } from '../../tools/lib/local-dns.js';
import { startObjectStore } from '../../tools/lib/object-store.js';
import { startBackendWithSidecar } from '../../tools/lib/sidecar.js';
import { editedTexts, testProfile } from '../helpers/config-files.js';

export interface TestObjectStore {
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The bucket of the shipped configuration. */
  bucket: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    publicUrl: string;
    internalUrl: string;
    workerBundle: WorkerBundle;
    tmpRoot: string;
    objectStore: TestObjectStore;
  }
}

const SHM = '/dev/shm';

/**
 * The real S3 server (radosgw) every test backend stores assets in, and one shared backend with
 * the shipped configuration; files needing another configuration start their own backend.
 */
export default async function setup(project: TestProject) {
  // Memory-backed where the machine has it: the backends' SQLite files (D1, every object) sync on
  // each commit, which a disk makes the suite wait for.
  const root = mkdtempSync(join(existsSync(SHM) ? SHM : tmpdir(), 'svc-test-'));
  const [workerBundle, store] = await Promise.all([
    bundleWorker(join(root, 'build')),
    startObjectStore({ stateDir: join(root, 'object-store'), onLog: () => {} }),
  ]);
  const { endpoint, region, accessKeyId, secretAccessKey } = store;
  const objectStore: TestObjectStore = { endpoint, region, accessKeyId, secretAccessKey, bucket: 'assets' };
  await ensureBucket(objectStore, objectStore.bucket);
  project.provide('objectStore', objectStore);
  // The shipped configuration federates: its federator runs too, with a DNS server that knows no
  // remote (files needing remotes start their own backends).
  const dns = await startLocalDns();
  const backend = await startBackendWithSidecar(
    {
      port: 0,
      internalPort: 0,
      config: editedTexts(testProfile(endpoint)),
      stateDir: join(root, 'shared-state'),
      bundle: workerBundle,
      objectStore,
      onLog: () => {},
    },
    { root, dns },
  );
  project.provide('publicUrl', backend.publicUrl.origin);
  project.provide('internalUrl', backend.internalUrl.origin);
  project.provide('workerBundle', workerBundle);
  project.provide('tmpRoot', root);
  return async () => {
    await backend.stop();
    await dns.stop();
    await store.stop();
    rmSync(root, { recursive: true, force: true });
  };
}
