// Children that die with this process, however it dies (a parent-death signal set through
// setpriv(1), which survives exec): local daemons and the worker runtime must not outlive it.
import { accessSync, chmodSync, constants, mkdirSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export function findBinary(name: string): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/bin', '/usr/sbin', '/bin', '/sbin'];
  for (const d of dirs) {
    if (!d) continue;
    const p = join(d, name);
    try {
      accessSync(p, constants.X_OK);
      return p;
    } catch {
      // next
    }
  }
  return undefined;
}

/** Spawn through setpriv(1) when there is one, so the child gets SIGKILL when this process dies. */
export function withDeathSignal(bin: string, args: string[]): [string, string[]] {
  const setpriv = findBinary('setpriv');
  return setpriv ? [setpriv, ['--pdeathsig', 'KILL', '--', bin, ...args]] : [bin, args];
}

/**
 * A script in `dir` that runs `bin` with its arguments as `withDeathSignal` would, for programs
 * that take a binary's path rather than a command line (miniflare's MINIFLARE_WORKERD_PATH).
 */
export function deathSignalWrapper(bin: string, dir: string): string {
  const [cmd, args] = withDeathSignal(bin, []);
  const quote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;
  const path = join(dir, 'run-with-death-signal');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path, `#!/bin/sh\nexec ${[cmd, ...args].map(quote).join(' ')} "$@"\n`);
  chmodSync(path, 0o755);
  return path;
}
