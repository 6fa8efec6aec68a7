import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startBackend } from '../../tools/lib/backend.js';
import { bundleWorker } from '../../tools/lib/bundle.js';

declare module 'vitest' {
  export interface ProvidedContext {
    publicUrl: string;
    internalUrl: string;
    workerScript: string;
    tmpRoot: string;
  }
}

/** One shared backend with the shipped configuration; files needing another one start their own. */
export default async function setup(project: TestProject) {
  const root = mkdtempSync(join(tmpdir(), 'svc-test-'));
  const workerScript = await bundleWorker(join(root, 'build'));
  const backend = await startBackend({
    port: 0,
    internalPort: 0,
    configDir: 'config',
    stateDir: join(root, 'shared-state'),
    scriptPath: workerScript,
    onLog: () => {},
  });
  project.provide('publicUrl', backend.publicUrl.origin);
  project.provide('internalUrl', backend.internalUrl.origin);
  project.provide('workerScript', workerScript);
  project.provide('tmpRoot', root);
  return async () => {
    await backend.stop();
    rmSync(root, { recursive: true, force: true });
  };
}
