import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { ROOT } from './bundle.js';

export interface NpmStart {
  /** The `npm` process itself. */
  child: ChildProcess;
  /** Everything it printed, stdout and stderr. */
  output: string[];
  /** Resolves with the printed `assets` endpoint once `ready` is printed; rejects if it exits first. */
  ready: Promise<{ assets: string }>;
  /** Resolves when the `npm` process has exited. */
  exited: Promise<void>;
}

/** Runs `npm start` as an operator does, in its own process group, with these environment overrides. */
export function npmStart(env: Record<string, string>): NpmStart {
  const child = spawn('npm', ['start'], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const output: string[] = [];
  let assets = '';
  createInterface({ input: child.stderr! }).on('line', (l) => output.push(l));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = new Promise<{ assets: string }>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (l) => {
      output.push(l);
      assets = /^assets\s+(\S+)/.exec(l)?.[1] ?? assets;
      if (l === 'ready') resolve({ assets });
    });
    child.once('exit', (code) => reject(new Error(`npm start exited with ${code}:\n${output.join('\n')}`)));
  });
  ready.catch(() => {});
  return { child, output, ready, exited };
}
