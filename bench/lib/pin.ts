import { execFileSync } from 'node:child_process';
import { processTree } from '../../tools/lib/process-tree.js';

/**
 * "Server on one core": every workerd process this bench started goes to core 0, the bench's own
 * clients to the other cores. Needs `taskset` (util-linux) and more than one core; otherwise the
 * numbers are printed unpinned, with a note.
 */
export function pinServerToOneCore(): string {
  try {
    const cores = Number(execFileSync('nproc', ['--all'], { encoding: 'utf8' }).trim());
    if (cores < 2) return 'not pinned: one core';
    const children = workerdPids().map(String);
    for (const pid of children) execFileSync('taskset', ['-a', '-cp', '0', pid], { stdio: 'ignore' });
    execFileSync('taskset', ['-a', '-cp', `1-${cores - 1}`, String(process.pid)], { stdio: 'ignore' });
    return `server pinned to core 0 (${children.length} workerd processes), clients on cores 1-${cores - 1}`;
  } catch (err) {
    return `not pinned: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`;
  }
}

/** Every workerd this bench started, directly or through `npm start`'s process. */
export function workerdPids(): number[] {
  return processTree(process.pid)
    .filter((p) => p.name === 'workerd')
    .map((p) => p.pid);
}
