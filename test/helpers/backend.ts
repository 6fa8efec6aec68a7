import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';
import type { ConfigTexts } from '../../src/shared/config/index.js';
import { startBackend } from '../../tools/lib/backend.js';
import { editedTexts, type Edit } from './config-files.js';

export interface TestBackend {
  publicUrl: string;
  internalUrl: string;
  /** Every line the worker logged. */
  logs: string[];
  stop(): Promise<void>;
}

/** The backend every integration file shares (shipped configuration). */
export function sharedBackend(): { publicUrl: string; internalUrl: string } {
  return { publicUrl: inject('publicUrl'), internalUrl: inject('internalUrl') };
}

function writeConfig(dir: string, texts: ConfigTexts): void {
  mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(texts)) if (text !== undefined) writeFileSync(join(dir, file), text);
}

/** A backend of its own, with the shipped configuration edited, on free ports and fresh state. */
export async function startEditedBackend(edits: Edit[], opts: { migrate?: boolean } = {}): Promise<TestBackend> {
  const root = mkdtempSync(join(inject('tmpRoot'), 'backend-'));
  const configDir = join(root, 'config');
  writeConfig(configDir, editedTexts(edits));
  const logs: string[] = [];
  const backend = await startBackend({
    port: 0,
    internalPort: 0,
    configDir,
    stateDir: join(root, 'state'),
    scriptPath: inject('workerScript'),
    migrate: opts.migrate ?? true,
    onLog: (l) => logs.push(l),
  });
  return {
    publicUrl: backend.publicUrl.origin,
    internalUrl: backend.internalUrl.origin,
    logs,
    stop: backend.stop,
  };
}
