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
