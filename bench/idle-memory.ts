// The memory of an idle local backend, as a newcomer's `npm start` leaves it: every process of
// the tree, by name, after start-up has settled. Target: under 600 MB in all.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { npmStart } from '../tools/lib/npm-start.js';
import { freePort } from '../tools/lib/ports.js';
import { processTree, waitGone } from '../tools/lib/process-tree.js';

const SETTLE_MS = Number(process.env.BENCH_IDLE_SETTLE_MS ?? 5000);
const TARGET_MB = 600;
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);

const root = mkdtempSync(join(tmpdir(), 'svc-idle-'));
const run = npmStart({
  PORT: String(await freePort()),
  INTERNAL_PORT: String(await freePort()),
  STATE_DIR: join(root, 'state'),
});
try {
  await run.ready;
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  const tree = processTree(run.child.pid!);
  const byName = new Map<string, { count: number; rss: number }>();
  for (const p of tree) {
    const entry = byName.get(p.name) ?? { count: 0, rss: 0 };
    byName.set(p.name, { count: entry.count + 1, rss: entry.rss + p.rss });
  }
  const total = tree.reduce((sum, p) => sum + p.rss, 0);
  console.log(`idle local backend (npm start, ${SETTLE_MS / 1000} s after ready): resident memory by process`);
  console.log('process              count   MB');
  for (const [name, { count, rss }] of [...byName].sort((a, b) => b[1].rss - a[1].rss))
    console.log(`${name.padEnd(20)} ${String(count).padStart(5)} ${mb(rss).padStart(4)}`);
  console.log(
    `total                ${String(tree.length).padStart(5)} ${mb(total).padStart(4)}   (target < ${TARGET_MB} MB)`,
  );
} finally {
  const pids = processTree(run.child.pid!).map((p) => p.pid);
  run.child.kill('SIGTERM'); // the top process only, as a process manager does
  const left = await waitGone(pids, 30_000);
  if (left.length > 0) console.log(`still running 30 s after SIGTERM: ${left.join(' ')}`);
  rmSync(root, { recursive: true, force: true });
}
