// The backend as `npm start` runs it: `npm start` itself (the worker and the objects on workerd,
// the federator sidecar, the local object store), its state on this machine's disk, a shipped
// configuration folder with at most a few keys edited.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../tools/lib/bundle.js';
import { readConfigTexts } from '../../tools/lib/config-dir.js';
import { type Edit, editedTexts } from '../../tools/lib/config-edit.js';
import { type NpmStart, npmStart as run } from '../../tools/lib/npm-start.js';
import { processTree, waitGone } from '../../tools/lib/process-tree.js';

export interface StartedBackend {
  /** Where it listens now (a restart listens on new ports). */
  publicUrl: URL;
  internalUrl: URL;
  /** The `npm` process (workerd, the sidecar and the object store are in its process tree). */
  pid: number;
  /** Its STATE_DIR: the D1 database and the objects' storage are under it. */
  stateDir: string;
  /** Stops every process of it and keeps its state: an outage. */
  down(): Promise<void>;
  /** Starts it again on the state it left. */
  up(): Promise<void>;
  /** Stops it and removes its state. */
  stop(): Promise<void>;
  /** The last lines it printed, stdout and stderr (a failure's log lines and stacks). */
  lastLines(count: number): string[];
}

export interface StartOptions {
  /** The shipped configuration folder to start from (default `config`). */
  config?: string;
  inspectorPort?: number;
}

/**
 * Starts `npm start` on free ports and a fresh state directory under the repository (or under
 * BENCH_STATE_ROOT: a memory-backed one shows what the disk costs).
 */
export async function npmStart(edits: Edit[] = [], o: StartOptions = {}): Promise<StartedBackend> {
  const root = mkdtempSync(join(process.env.BENCH_STATE_ROOT ?? ROOT, '.bench-'));
  const configDir = join(root, 'config');
  cpSync(join(ROOT, o.config ?? 'config'), configDir, { recursive: true });
  const texts = editedTexts(edits, readConfigTexts(configDir));
  for (const [file] of edits) writeFileSync(join(configDir, file), texts[file]!);
  const env = {
    PORT: '0',
    INTERNAL_PORT: '0',
    STATE_DIR: join(root, 'state'),
    CONFIG_DIR: configDir,
    ...(o.inspectorPort === undefined ? {} : { INSPECTOR_PORT: String(o.inspectorPort) }),
  };
  let running: NpmStart | undefined;
  const started: StartedBackend = {
    publicUrl: new URL('http://invalid'),
    internalUrl: new URL('http://invalid'),
    pid: 0,
    stateDir: env.STATE_DIR,
    down: async () => {
      if (running === undefined) return;
      const pids = processTree(running.child.pid!).map((p) => p.pid);
      running.child.kill('SIGTERM'); // the top process only, as a process manager does
      await waitGone(pids, 30_000);
      running = undefined;
    },
    up: async () => {
      running = run(env);
      const { publicUrl, internalUrl } = await running.ready;
      Object.assign(started, { pid: running.child.pid!, publicUrl, internalUrl });
    },
    stop: async () => {
      await started.down();
      rmSync(root, { recursive: true, force: true });
    },
    lastLines: (count) => running?.output.slice(-count) ?? [],
  };
  try {
    await started.up();
    return started;
  } catch (err) {
    await started.stop();
    throw err;
  }
}
