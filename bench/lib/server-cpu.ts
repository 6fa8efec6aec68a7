import { readdirSync, readFileSync } from 'node:fs';
import { workerdPids } from './pin.js';

/**
 * A reader of the CPU time (ns) used so far by every workerd process this bench has started, all
 * threads: the sum of the kernel's per-thread run time (`/proc/<pid>/task/<tid>/schedstat`; a
 * thread still running counts up to its last tick). `undefined` where the kernel keeps none.
 */
export function serverCpuReader(): (() => number) | undefined {
  try {
    const pids = workerdPids();
    const read = () => {
      let total = 0;
      for (const pid of pids)
        for (const tid of readdirSync(`/proc/${pid}/task`)) {
          try {
            total += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
          } catch {
            // the thread ended meanwhile
          }
        }
      return total;
    };
    return pids.length > 0 && read() > 0 ? read : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Quiet: this many 1 s windows in a row in which workerd used less than this CPU, the first no
 * sooner than workerd closes an object idle since the wait began (its inactivity timeout, 10 s).
 */
const QUIET = { windows: 2, windowMs: 1000, belowNs: 5e6, idleCloseMs: 10_000, maxMs: 90_000 };

/**
 * Waits until workerd is quiet (see QUIET), at most 90 s: a setup leaves hundreds of idle Durable
 * Objects that workerd closes some 10 s later, each checkpointing its SQLite WAL, which would
 * otherwise be counted as the next request's CPU. Says how long it waited ('' where the CPU cannot
 * be read).
 */
export async function quiet(): Promise<string> {
  const read = serverCpuReader();
  if (read === undefined) return '';
  const start = performance.now();
  const waited = () => performance.now() - start;
  let calm = 0;
  let last = read();
  while (calm < QUIET.windows || waited() < QUIET.idleCloseMs + QUIET.windows * QUIET.windowMs) {
    if (waited() >= QUIET.maxMs) return `not quiet after ${QUIET.maxMs / 1000} s`;
    await new Promise((r) => setTimeout(r, QUIET.windowMs));
    const now = read();
    calm = now - last < QUIET.belowNs ? calm + 1 : 0;
    last = now;
  }
  return `quiet after ${(waited() / 1000).toFixed(0)} s`;
}
