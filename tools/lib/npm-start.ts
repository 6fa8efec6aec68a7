import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { ROOT } from './bundle.js';

/** Where the backend serves, as start.ts prints it. */
interface Announced {
  assets: string;
  publicUrl: URL;
  internalUrl: URL;
}

export interface NpmStart {
  /** The `npm` process itself. */
  child: ChildProcess;
  /** Everything it printed, stdout and stderr. */
  output: string[];
  /** Resolves with what it printed (listeners, `assets` endpoint) once `ready` is printed; rejects if it exits first. */
  ready: Promise<Announced>;
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
  const printed: Record<string, string> = {};
  createInterface({ input: child.stderr! }).on('line', (l) => output.push(l));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = new Promise<Announced>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (l) => {
      output.push(l);
      const [, key, value] = /^(assets|public|internal)\s+(\S+)/.exec(l) ?? [];
      if (key !== undefined) printed[key] = value!;
      if (l === 'ready')
        resolve({
          assets: printed.assets ?? '',
          publicUrl: new URL(printed.public ?? 'http://invalid'),
          internalUrl: new URL(printed.internal ?? 'http://invalid'),
        });
    });
    child.once('exit', (code) => reject(new Error(`npm start exited with ${code}:\n${output.join('\n')}`)));
  });
  ready.catch(() => {});
  return { child, output, ready, exited };
}
