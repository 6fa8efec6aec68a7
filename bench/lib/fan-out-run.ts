import WebSocket from 'ws';
import { percentile } from './backend.js';

/** Where a run sends its messages and opens its sockets: our backend, or the bare baseline. */
export interface FanOutTarget {
  /** Socket URLs, one per receiving client. */
  socketUrls: string[];
  /** Sends message `index` (resolves when the server accepted it). */
  send(index: number): Promise<void>;
  /** The message index a frame carries (default: otr messages and renames, see `indexOf`). */
  indexOf?: ((frame: Buffer) => number | undefined) | undefined;
  /** Reads the server's CPU time so far (ns; see server-cpu.ts): the run reports its share. */
  serverCpu?: (() => number) | undefined;
}

export interface RunResult {
  deliveriesPerSecond: number;
  messagesPerSecond: number;
  p50: number;
  p99: number;
  /** Share of one core the load client (this process) used meanwhile: near 100% would make it the limit. */
  clientCpu: number;
  /** Server CPU time (ms) spent from the first counted send to the last frame, when measured. */
  serverCpuMs?: number | undefined;
}

/** A paced run gives up when this many sends wait: the server cannot take the load. */
const MAX_OUTSTANDING = 200;
/** A run fails, rather than hangs, when no frame came for this long. */
const STALL_MS = 30_000;

const DATA = Buffer.from('"data":"');
const BENCH = Buffer.from('"bench-');
const QUOTE = 0x22;

/**
 * The message index a frame carries, found in its bytes without parsing the JSON (a full parse
 * per frame made the load client the limit): an otr message's blob, the frame's last `"data":"…"`
 * (base64 of a little-endian u32), or a rename's name, `bench-<index>`.
 */
export function indexOf(frame: Buffer): number | undefined {
  const named = frame.indexOf(BENCH);
  if (named >= 0) {
    const end = frame.indexOf(QUOTE, named + BENCH.length);
    return end < 0 ? undefined : Number(frame.toString('latin1', named + BENCH.length, end));
  }
  const at = frame.lastIndexOf(DATA);
  if (at < 0) return undefined;
  const end = frame.indexOf(QUOTE, at + DATA.length);
  if (end - at - DATA.length !== 8) return undefined;
  return Buffer.from(frame.toString('latin1', at + DATA.length, end), 'base64').readUInt32LE(0);
}

async function openAll(
  urls: string[],
  onIndex: (i: number) => void,
  frameIndex: (frame: Buffer) => number | undefined,
): Promise<WebSocket[]> {
  return Promise.all(
    urls.map(
      (url) =>
        new Promise<WebSocket>((resolve, reject) => {
          const ws = new WebSocket(url, { perMessageDeflate: false });
          ws.on('message', (data: Buffer) => {
            const i = frameIndex(data);
            if (i !== undefined) onIndex(i);
          });
          ws.once('open', () => resolve(ws));
          ws.once('error', reject);
        }),
    ),
  );
}

/**
 * Sends `count` messages and waits until every socket got each one. `closed: k` keeps k sends in
 * flight (maximum throughput); `rate: r` starts one send every 1/r s whatever the server does
 * (latency at a given load). Message `count` goes first, uncounted: it wakes the objects.
 */
export async function runFanOut(
  t: FanOutTarget,
  count: number,
  mode: { closed: number } | { rate: number },
): Promise<RunResult> {
  const sentAt: number[] = [];
  const latencies: number[] = [];
  let delivered = 0;
  let last = 0;
  let warm: () => void = () => {};
  let finish: () => void = () => {};
  const warmed = new Promise<void>((r) => (warm = r));
  const finished = new Promise<void>((r) => (finish = r));
  let warmSeen = 0;
  const expected = count * t.socketUrls.length;
  const sockets = await openAll(
    t.socketUrls,
    (i) => {
      last = performance.now();
      if (i === count) {
        if (++warmSeen === t.socketUrls.length) warm();
        return;
      }
      delivered += 1;
      latencies.push(last - sentAt[i]!);
      if (delivered === expected) finish();
    },
    t.indexOf ?? indexOf,
  );
  // A frame that never comes fails the run instead of hanging it.
  let watchdog: NodeJS.Timeout | undefined;
  const stalled = new Promise<never>((_, reject) => {
    watchdog = setInterval(() => {
      if (performance.now() - last > STALL_MS)
        reject(
          new Error(`nothing for ${STALL_MS / 1000} s: ${warmSeen} warm-up and ${delivered} of ${expected} frames`),
        );
    }, 1000);
  });
  stalled.catch(() => {}); // raced below
  try {
    last = performance.now();
    await t.send(count);
    await Promise.race([warmed, stalled]);
    const cpu = process.cpuUsage();
    const serverCpuAtStart = t.serverCpu?.();
    const start = performance.now();
    if ('closed' in mode) {
      let next = 0;
      await Promise.all(
        Array.from({ length: mode.closed }, async () => {
          while (next < count) {
            const i = next++;
            sentAt[i] = performance.now();
            await t.send(i);
          }
        }),
      );
    } else {
      const sends: Array<Promise<void>> = [];
      let outstanding = 0;
      for (let i = 0; i < count; i++) {
        if (outstanding > MAX_OUTSTANDING)
          throw new Error(`cannot keep up: ${outstanding} sends outstanding after ${i} of ${count}`);
        const due = start + (i * 1000) / mode.rate;
        const wait = due - performance.now();
        if (wait > 1) await new Promise((r) => setTimeout(r, wait));
        sentAt[i] = performance.now();
        outstanding += 1;
        const sent = t.send(i).finally(() => (outstanding -= 1));
        sent.catch(() => {}); // reported by Promise.all below, not as an unhandled rejection now
        sends.push(sent);
      }
      await Promise.all(sends);
    }
    const accepted = performance.now();
    await Promise.race([finished, stalled]);
    const used = process.cpuUsage(cpu);
    const serverCpuAtEnd = t.serverCpu?.();
    latencies.sort((x, y) => x - y);
    return {
      deliveriesPerSecond: delivered / ((last - start) / 1000),
      messagesPerSecond: count / ((accepted - start) / 1000),
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      clientCpu: (used.user + used.system) / 1000 / (last - start),
      serverCpuMs:
        serverCpuAtStart === undefined || serverCpuAtEnd === undefined
          ? undefined
          : (serverCpuAtEnd - serverCpuAtStart) / 1e6,
    };
  } finally {
    clearInterval(watchdog);
    // Closed for good before the next run opens as many again.
    await Promise.all(
      sockets.map(
        (ws) =>
          new Promise((r) => {
            ws.once('close', r);
            ws.close();
          }),
      ),
    );
  }
}
