import WebSocket from 'ws';
import { percentile } from './backend.js';
import type { FanOutTarget, RunResult } from './fan-out-run.js';

/**
 * A fan-out target whose messages are MLS ciphertexts, the same bytes for every recipient: each
 * frame is `{payload: [{type: 'conversation.mls-message-add', data: <base64>}]}` (with more fields
 * from the backend), and a message is known by its data, the frame's only `"data":"…"` field.
 */
export interface MlsFanOutTarget extends FanOutTarget {
  /** The base64 of message `i`, for every `i` up to and including the warm-up message `count`. */
  data: string[];
}

export interface MlsRunResult extends RunResult {
  /** Share of one core the load client (this process) used meanwhile: near 100% would make it the limit. */
  clientCpu: number;
}

const STALL_MS = 30_000;
const DATA = Buffer.from('"data":"');
const QUOTE = 0x22;

/**
 * Sends `count` messages with `inFlight` sends at a time and waits until every socket got each
 * one (the closed loop of `runFanOut`, for frames matched by their MLS data). Message `count` goes
 * first, uncounted: it wakes the objects.
 */
export async function runMlsFanOut(t: MlsFanOutTarget, count: number, inFlight: number): Promise<MlsRunResult> {
  const index = new Map(t.data.map((d, i) => [d, i]));
  const sentAt: number[] = [];
  const latencies: number[] = [];
  let delivered = 0;
  let last = 0;
  let warmSeen = 0;
  let warm: () => void = () => {};
  let finish: () => void = () => {};
  const warmed = new Promise<void>((r) => (warm = r));
  const finished = new Promise<void>((r) => (finish = r));
  const expected = count * t.socketUrls.length;
  const onFrame = (frame: Buffer) => {
    // The data field found in the bytes, not by parsing the JSON: the client must not be the limit.
    const at = frame.indexOf(DATA);
    const end = at < 0 ? -1 : frame.indexOf(QUOTE, at + DATA.length);
    const i = end < 0 ? undefined : index.get(frame.toString('latin1', at + DATA.length, end));
    if (i === undefined) return;
    last = performance.now();
    if (i === count) {
      if (++warmSeen === t.socketUrls.length) warm();
      return;
    }
    delivered += 1;
    latencies.push(last - sentAt[i]!);
    if (delivered === expected) finish();
  };
  const sockets = await Promise.all(
    t.socketUrls.map(
      (url) =>
        new Promise<WebSocket>((resolve, reject) => {
          const ws = new WebSocket(url, { perMessageDeflate: false });
          ws.on('message', onFrame);
          ws.once('open', () => resolve(ws));
          ws.once('error', reject);
        }),
    ),
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
    const start = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: inFlight }, async () => {
        while (next < count) {
          const i = next++;
          sentAt[i] = performance.now();
          await t.send(i);
        }
      }),
    );
    const accepted = performance.now();
    await Promise.race([finished, stalled]);
    const used = process.cpuUsage(cpu);
    latencies.sort((x, y) => x - y);
    return {
      deliveriesPerSecond: delivered / ((last - start) / 1000),
      messagesPerSecond: count / ((accepted - start) / 1000),
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      clientCpu: (used.user + used.system) / 1000 / (last - start),
    };
  } finally {
    clearInterval(watchdog);
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
