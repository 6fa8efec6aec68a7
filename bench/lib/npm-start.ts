// The backend as `npm start` runs it: tools/start.ts in its own process (the worker and the objects
// on workerd, the federator sidecar, the local object store), its state on this machine's disk,
// a shipped configuration folder with at most a few keys edited.
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../tools/lib/bundle.js';
import { readConfigTexts } from '../../tools/lib/config-dir.js';
import { type Edit, editedTexts } from '../../tools/lib/config-edit.js';

export interface StartedBackend {
  /** Where it listens now (a restart listens on new ports). */
  publicUrl: URL;
  internalUrl: URL;
  /** The start process (workerd and the sidecar are in its process tree). */
  pid: number;
  /** Stops the process and keeps its state: an outage. */
  down(): Promise<void>;
  /** Starts it again on the state it left. */
  up(): Promise<void>;
  /** Stops it and removes its state. */
  stop(): Promise<void>;
}

export interface StartOptions {
  /** The shipped configuration folder to start from (default `config`). */
  config?: string;
  inspectorPort?: number;
}

/**
 * Starts `npm start`'s process on free ports and a fresh state directory under the repository (or
 * under BENCH_STATE_ROOT: a memory-backed one shows what the disk costs).
 */
export async function npmStart(edits: Edit[] = [], o: StartOptions = {}): Promise<StartedBackend> {
  const root = mkdtempSync(join(process.env.BENCH_STATE_ROOT ?? ROOT, '.bench-'));
  const configDir = join(root, 'config');
  cpSync(join(ROOT, o.config ?? 'config'), configDir, { recursive: true });
  const texts = editedTexts(edits, readConfigTexts(configDir));
  for (const [file] of edits) writeFileSync(join(configDir, file), texts[file]!);
  const env = {
    ...process.env,
    PORT: '0',
    INTERNAL_PORT: '0',
    STATE_DIR: join(root, 'state'),
    CONFIG_DIR: configDir,
    ...(o.inspectorPort === undefined ? {} : { INSPECTOR_PORT: String(o.inspectorPort) }),
  };
  let child: ChildProcess | undefined;
  const started: StartedBackend = {
    publicUrl: new URL('http://0.0.0.0'),
    internalUrl: new URL('http://0.0.0.0'),
    pid: 0,
    down: async () => {
      if (child !== undefined) await stopped(child);
      child = undefined;
    },
    up: async () => {
      child = spawn(process.execPath, ['--max-semi-space-size=1', '--import', 'tsx', 'tools/start.ts'], {
        cwd: ROOT,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      Object.assign(started, { pid: child.pid!, ...(await announced(child)) });
    },
    stop: async () => {
      await started.down();
      rmSync(root, { recursive: true, force: true });
    },
  };
  try {
    await started.up();
    return started;
  } catch (err) {
    await started.stop();
    throw err;
  }
}

/** The public and internal URLs start.ts prints once the backend serves. */
function announced(child: ChildProcess): Promise<{ publicUrl: URL; internalUrl: URL }> {
  return new Promise((resolve, reject) => {
    let out = '';
    let served = false;
    const urls: Partial<Record<'public' | 'internal', URL>> = {};
    const read = (chunk: Buffer) => {
      if (served) return; // what it logs later is drained, not kept
      out += chunk.toString('utf8');
      for (const m of out.matchAll(/^(public|internal)\s+(http\S+)/gm))
        urls[m[1] as 'public' | 'internal'] = new URL(m[2]!);
      if (urls.public === undefined || urls.internal === undefined) return;
      served = true;
      resolve({ publicUrl: urls.public, internalUrl: urls.internal });
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', (chunk: Buffer) => served || (out += chunk.toString('utf8')));
    child.once('exit', (code) => reject(new Error(`npm start exited (${code}) before serving:\n${out.slice(-2000)}`)));
  });
}

function stopped(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
