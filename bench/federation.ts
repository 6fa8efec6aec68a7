// Federation: a Proteus message from a user of example.com to a user of b.example.com, through
// the owner's conversation object, the background worker's queue (D1 outbox, Cloudflare Queue
// under miniflare), both federators over mutual TLS, and the receiving backend's notification
// object, to the recipient's websocket. The same message to a user on the sender's own backend
// is measured in the same run as the baseline. Both backends run as `npm start` runs them, each
// in its own process with its federator; users and conversations are made through the API. They
// and this load client share the machine; the client's CPU share is printed beside every figure.
//
// Figures (issue 18): cross-backend message latency p50/p99 at a steady pace, and notifications
// per second through the queue with sends in flight. Issue 42: a backlog queued while the remote
// was down, drained once it is back: how soon the first arrives, and at what rate all do.
import WebSocket from 'ws';
import { indexOf, runFanOut, type FanOutTarget, type RunResult } from './lib/fan-out-run.js';
import { apiUser, connectUsers, groupOf } from './lib/api-seed.js';
import { A, B, benchPair } from './lib/federated-pair.js';
import { otrMessage, phase, send } from './lib/otr-load.js';
import type { SeededUser } from './lib/seed.js';

const PACED = Number(process.env.BENCH_FED_PACED ?? 300);
const RATE = Number(process.env.BENCH_FED_RATE ?? 20);
const BURST = Number(process.env.BENCH_FED_BURST ?? 1000);
const IN_FLIGHT = Number(process.env.BENCH_IN_FLIGHT ?? 8);
const BACKLOG = Number(process.env.BENCH_FED_BACKLOG ?? 5000);

const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
const ms = (x: number) => x.toFixed(1).padStart(7);

const pair = await benchPair();
try {
  const [alice, carol] = [await apiUser(pair.a), await apiUser(pair.a)];
  const bob = await apiUser(pair.b);
  await connectUsers({ user: alice, backend: pair.a }, { user: carol, backend: pair.a, domain: A }, A);
  await connectUsers({ user: alice, backend: pair.a }, { user: bob, backend: pair.b, domain: B }, A);
  const across = await groupOf(pair.a, alice, [{ id: bob.id, domain: B }]);
  const local = await groupOf(pair.a, alice, [{ id: carol.id, domain: A }]);

  const target = (conv: string, to: SeededUser, domain: string, count: number, socketBase: URL): FanOutTarget => {
    const bodies = Array.from({ length: count + 1 }, (_, i) => otrMessage(alice, [to], i, domain));
    const headers = { authorization: `Bearer ${alice.token}`, 'content-type': 'application/x-protobuf' };
    const url = `${pair.a.publicUrl.origin}/v8/conversations/${A}/${conv}/proteus/messages`;
    const ws = socketBase.origin.replace(/^http/, 'ws');
    return {
      socketUrls: [`${ws}/v8/await?access_token=${to.token}&client=${to.clients[0]}`],
      send: async (i) => void (await send(url, bodies[i]!, headers)),
    };
  };
  const row = (name: string, r: RunResult) =>
    console.log(
      `${name.padEnd(34)} ${r.messagesPerSecond.toFixed(0).padStart(8)} ${ms(r.p50)} ${ms(r.p99)}   ${pct(r.clientCpu)}`,
    );

  console.log('proteus message, one recipient client on /await; latency from the send to the frame');
  console.log(`${'run'.padEnd(34)}    msg/s  p50 ms  p99 ms   load client CPU`);
  const paced = { rate: RATE };
  row(
    `same backend, ${RATE}/s`,
    await phase('local paced', () => runFanOut(target(local, carol, A, PACED, pair.a.publicUrl), PACED, paced)),
  );
  row(
    `across backends, ${RATE}/s`,
    await phase('across paced', () => runFanOut(target(across, bob, B, PACED, pair.b.publicUrl), PACED, paced)),
  );
  const closed = { closed: IN_FLIGHT };
  row(
    `same backend, ${IN_FLIGHT} in flight`,
    await phase('local burst', () => runFanOut(target(local, carol, A, BURST, pair.a.publicUrl), BURST, closed)),
  );
  const burst = await phase('across burst', () =>
    runFanOut(target(across, bob, B, BURST, pair.b.publicUrl), BURST, closed),
  );
  row(`across backends, ${IN_FLIGHT} in flight`, burst);
  console.log(
    `notifications through the queue: ${burst.deliveriesPerSecond.toFixed(0)}/s (${BURST} on-message-sent, each one message to ${B})`,
  );

  const drained = await phase('backlog', () => backlog(target(across, bob, B, BACKLOG, pair.b.publicUrl)));
  console.log(`a backlog of ${BACKLOG} queued while ${B} was down (target: first within 5 s, >= 2,000/s, in order):`);
  console.log(
    `  first ${(drained.firstMs / 1000).toFixed(1)} s after it serves again, then ${drained.perSecond.toFixed(0)}/s, ` +
      `${drained.outOfOrder} out of order, load client ${pct(drained.clientCpu)}`,
  );

  /**
   * Stops the remote's `npm start`, queues BACKLOG notifications for it, starts it again on the
   * same state and counts their arrival on the recipient's socket, opened as soon as it serves.
   */
  async function backlog(t: FanOutTarget) {
    await pair.b.down();
    // One at a time: the queue's order is the index order the frames are checked against.
    for (let i = 0; i < BACKLOG; i++) await t.send(i);
    await pair.b.up();
    const cpu = process.cpuUsage();
    const servedAt = performance.now();
    const socket = target(across, bob, B, 0, pair.b.publicUrl).socketUrls[0]!;
    let seen = 0;
    let outOfOrder = 0;
    let previous = -1;
    let firstAt = 0;
    let lastAt = 0;
    const ws = new WebSocket(socket, { perMessageDeflate: false });
    await new Promise<void>((resolve, reject) => {
      ws.on('message', (frame: Buffer) => {
        const i = indexOf(frame);
        if (i === undefined) return;
        lastAt = performance.now();
        if (seen++ === 0) firstAt = lastAt;
        if (i < previous) outOfOrder += 1;
        previous = i;
        if (seen === BACKLOG) resolve();
      });
      ws.once('error', reject);
      const stalled = setInterval(() => {
        if (performance.now() - Math.max(lastAt, servedAt) < 30_000) return;
        clearInterval(stalled);
        reject(new Error(`nothing for 30 s after ${seen} of ${BACKLOG}`));
      }, 1000);
      ws.once('close', () => clearInterval(stalled));
    }).finally(() => ws.close());
    const used = process.cpuUsage(cpu);
    return {
      firstMs: firstAt - servedAt,
      perSecond: (BACKLOG - 1) / ((lastAt - firstAt) / 1000),
      outOfOrder,
      clientCpu: (used.user + used.system) / 1000 / (lastAt - servedAt),
    };
  }
} finally {
  await pair.dispose();
}
