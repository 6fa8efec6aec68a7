import { writeFileSync } from 'node:fs';
import WebSocket from 'ws';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
}
interface Target {
  webSocketDebuggerUrl: string;
  title: string;
}

/** The backend's isolates: the edge worker's and the objects' (each script runs in its own). */
const SCRIPTS = ['svc-backend', 'svc-objects'];

/** A CPU profiler session on one isolate; `stop()` ends it and returns the profile. */
async function startProfiler(target: Target): Promise<() => Promise<Profile>> {
  const ws = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((r) => ws.once('open', r));
  let next = 1;
  const pending = new Map<number, (v: unknown) => void>();
  ws.on('message', (d: Buffer) => {
    const m = JSON.parse(d.toString()) as { id?: number; result?: unknown };
    if (m.id !== undefined) pending.get(m.id)?.(m.result);
  });
  const call = (method: string, params: object = {}) =>
    new Promise<any>((resolve) => {
      const id = next++;
      pending.set(id, resolve);
      ws.send(JSON.stringify({ id, method, params }));
    });
  await call('Profiler.enable');
  await call('Profiler.setSamplingInterval', { interval: 200 });
  await call('Profiler.start');
  return async () => {
    const { profile } = (await call('Profiler.stop')) as { profile: Profile };
    ws.close();
    return profile;
  };
}

function printTop(title: string, profile: Profile, top: number): void {
  const self = new Map<number, number>();
  for (const s of profile.samples) self.set(s, (self.get(s) ?? 0) + 1);
  const byFn = new Map<string, number>();
  for (const n of profile.nodes) {
    const key = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber}`;
    byFn.set(key, (byFn.get(key) ?? 0) + (self.get(n.id) ?? 0));
  }
  const total = profile.samples.length;
  console.log(`profile of ${title}: ${total} samples`);
  for (const [fn, n] of [...byFn].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`${((n / total) * 100).toFixed(1).padStart(5)}%  ${fn}`);
}

/**
 * CPU profiles of the backend's isolates over `during()` (BENCH_INSPECTOR=<port>): prints, for
 * each, the functions with the most self time. For finding per-message work on the fan-out path.
 */
export async function profileWorker<T>(port: number, during: () => Promise<T>, top = 25): Promise<T> {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json`)).json()) as Target[];
  const ours = targets.filter((t) => SCRIPTS.some((s) => t.title.includes(s)));
  const sessions = await Promise.all(ours.map(async (t) => ({ title: t.title, stop: await startProfiler(t) })));
  const result = await during();
  for (const s of sessions) {
    const profile = await s.stop();
    printTop(s.title, profile, top);
    // BENCH_PROFILE_DIR keeps each isolate's profile, for DevTools or an inclusive-time reading.
    const dir = process.env.BENCH_PROFILE_DIR;
    if (dir !== undefined)
      writeFileSync(`${dir}/${s.title.replace(/\W+/g, '_')}-${Date.now()}.cpuprofile`, JSON.stringify(profile));
  }
  return result;
}
