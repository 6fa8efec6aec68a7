import { execFileSync } from 'node:child_process';

/**
 * "Server on one core": every workerd process this bench started goes to core 0, the bench's own
 * clients to the other cores. Needs `taskset` (util-linux) and more than one core; otherwise the
 * numbers are printed unpinned, with a note.
 */
export function pinServerToOneCore(): string {
  try {
    const cores = Number(execFileSync('nproc', { encoding: 'utf8' }).trim());
    if (cores < 2) return 'not pinned: one core';
    const children = execFileSync('pgrep', ['-P', String(process.pid), 'workerd'], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .filter(Boolean);
    for (const pid of children) execFileSync('taskset', ['-a', '-cp', '0', pid], { stdio: 'ignore' });
    execFileSync('taskset', ['-a', '-cp', `1-${cores - 1}`, String(process.pid)], { stdio: 'ignore' });
    return `server pinned to core 0 (${children.length} workerd processes), clients on cores 1-${cores - 1}`;
  } catch (err) {
    return `not pinned: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`;
  }
}
