// Proteus fan-out: one sender, one conversation of N members (1–2 clients each, every client
// connected by websocket). Prints messages accepted per second, client events delivered per
// second, and send-to-receive latency. Members are seeded straight into D1 (see lib/seed.ts).
import { createRequire } from 'node:module';
import type * as Otr from '@wireapp/protocol-messaging/web/otr.js';
import Long from 'long';
import WebSocket from 'ws';
import { benchBackend, percentile } from './lib/backend.js';
import { seedConversation, type SeededUser } from './lib/seed.js';

// The generated module is CommonJS whose exports Node's ESM loader cannot name: require it.
const require = createRequire(import.meta.url);
const { proteus } = require('@wireapp/protocol-messaging/web/otr.js') as typeof Otr;
const protobuf = require('protobufjs/minimal.js') as { util: { Long: unknown }; configure(): void };
protobuf.util.Long = Long;
protobuf.configure();

const SIZES = (process.env.BENCH_SIZES ?? '10,100,1000,2000').split(',').map(Number);
const DELIVERIES_PER_SIZE = Number(process.env.BENCH_DELIVERIES ?? 20000);
/** Sends in flight; one for 1,000+ members, where concurrent sends currently get their connection reset (to be fixed). */
const inFlight = (n: number) => Number(process.env.BENCH_IN_FLIGHT ?? (n >= 1000 ? 1 : 4));
const DOMAIN = 'example.com';

function message(sender: SeededUser, users: SeededUser[], index: number): Uint8Array {
  const text = new Uint8Array(64);
  const blob = new Uint8Array(new Uint32Array([index]).buffer);
  return proteus.QualifiedNewOtrMessage.encode(
    proteus.QualifiedNewOtrMessage.create({
      sender: { client: Long.fromString(sender.clients[0]!, true, 16) },
      recipients: [
        {
          domain: DOMAIN,
          entries: users.map((u) => ({
            user: { uuid: Buffer.from(u.id.replace(/-/g, ''), 'hex') },
            clients: u.clients.filter((cl) => !(u === sender && cl === sender.clients[0])).map((cl) => ({ client: { client: Long.fromString(cl, true, 16) }, text })),
          })),
        },
      ],
      reportAll: {},
      blob,
    }),
  ).finish();
}

function openAll(base: string, users: SeededUser[], onEvent: (index: number) => void): Promise<WebSocket[]> {
  const opens: Array<Promise<WebSocket>> = [];
  for (const u of users)
    for (const cl of u.clients) {
      const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/v8/await?access_token=${u.token}&client=${cl}`);
      ws.on('message', (data: Buffer) => {
        const e = JSON.parse(data.toString('utf8')).payload?.[0];
        if (e?.type === 'conversation.otr-message-add') onEvent(Buffer.from(e.data.data, 'base64').readUInt32LE(0));
      });
      opens.push(new Promise((resolve, reject) => (ws.once('open', () => resolve(ws)), ws.once('error', reject))));
    }
  return Promise.all(opens);
}

async function send(base: string, conv: string, sender: SeededUser, body: Uint8Array): Promise<void> {
  const res = await fetch(`${base}/v8/conversations/${DOMAIN}/${conv}/proteus/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sender.token}`, 'content-type': 'application/x-protobuf' },
    body: Buffer.from(body),
  });
  if (res.status !== 201) throw new Error(`send: ${res.status} ${await res.text()}`);
}

const b = await benchBackend();
try {
  console.log('members  clients  messages  in flight  accepted msg/s  delivered events/s  p50 ms  p99 ms');
  for (const n of SIZES) {
    try {
      await run(n);
    } catch (err) {
      console.log(`${String(n).padStart(7)}  failed: ${err instanceof Error ? `${err.message} ${String((err as { cause?: unknown }).cause ?? '')}` : String(err)}`);
    }
  }
} finally {
  await b.dispose();
}

async function run(n: number): Promise<void> {
  const base = b.publicUrl.origin;
  const { conv, users } = await seedConversation(b.mf, b.stateDir, { members: n, clientsPerUser: (i) => 1 + (i % 2), domain: DOMAIN });
  const sender = users[0]!;
  const recipientClients = users.reduce((sum, u) => sum + u.clients.length, 0) - 1;
  const count = Math.max(5, Math.min(200, Math.ceil(DELIVERIES_PER_SIZE / recipientClients)));
  const sentAt: number[] = [];
  const latencies: number[] = [];
  let delivered = 0;
  let lastDelivery = 0;
  let finish: () => void = () => {};
  const finished = new Promise<void>((r) => (finish = r));
  const sockets = await openAll(base, users, (index) => {
    if (index === count) return; // the warm-up message
    delivered += 1;
    lastDelivery = performance.now();
    latencies.push(lastDelivery - sentAt[index]!);
    if (delivered === count * recipientClients) finish();
  });
  const bodies = Array.from({ length: count }, (_, i) => message(sender, users, i));
  // One message first, not counted: it wakes every member's notification object.
  await send(base, conv, sender, message(sender, users, count));
  delivered = 0;
  latencies.length = 0;
  const start = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: inFlight(n) }, async () => {
      while (next < count) {
        const i = next++;
        sentAt[i] = performance.now();
        await send(base, conv, sender, bodies[i]!);
      }
    }),
  );
  const accepted = performance.now();
  await finished;
  latencies.sort((x, y) => x - y);
  const clients = recipientClients + 1;
  console.log(
    `${String(n).padStart(7)}  ${String(clients).padStart(7)}  ${String(count).padStart(8)}  ${String(inFlight(n)).padStart(9)}  ${(count / ((accepted - start) / 1000)).toFixed(1).padStart(14)}  ${(delivered / ((lastDelivery - start) / 1000)).toFixed(0).padStart(18)}  ${percentile(latencies, 50).toFixed(1).padStart(6)}  ${percentile(latencies, 99).toFixed(1).padStart(6)}`,
  );
  for (const ws of sockets) ws.close();
}
