// Fan-out: one sender, one conversation of N members with one client each, every client on a
// websocket, every event persisted in its recipient's notification stream. Measured against a
// bare Durable Object broadcasting to the same number of sockets, in the same run, with the
// server (workerd) pinned to one core. Members are seeded straight into D1 (see lib/seed.ts).
//
// Targets: at least half the bare broadcast's deliveries/s, at least 44,000 deliveries/s at 100
// members and 28,000 at 1,000 (an XMPP server on this machine), and at half that load p99 under
// 10 ms / 90 ms.
import { createRequire } from 'node:module';
import type * as Otr from '@wireapp/protocol-messaging/web/otr.js';
import Long from 'long';
import { Agent, request } from 'undici';
import { benchBackend } from './lib/backend.js';
import { baselineServer } from './lib/baseline.js';
import { runFanOut, type RunResult } from './lib/fan-out-run.js';
import { pinServerToOneCore } from './lib/pin.js';
import { profileWorker } from './lib/profile.js';
import { seedConversation, type SeededUser } from './lib/seed.js';

// The generated module is CommonJS whose exports Node's ESM loader cannot name: require it.
const require = createRequire(import.meta.url);
const { proteus } = require('@wireapp/protocol-messaging/web/otr.js') as typeof Otr;
const protobuf = require('protobufjs/minimal.js') as { util: { Long: unknown }; configure(): void };
protobuf.util.Long = Long;
protobuf.configure();

const SIZES = (process.env.BENCH_SIZES ?? '100,1000,2000').split(',').filter(Boolean).map(Number);
/**
 * Conversations too large for a Proteus message (one ciphertext per recipient does not fit the
 * 512 KiB ingress limit) get conversation events instead: renames, one event to every member.
 */
const EVENT_SIZES = (process.env.BENCH_EVENT_SIZES ?? '10000').split(',').filter(Boolean).map(Number);
const DELIVERIES_PER_RUN = Number(process.env.BENCH_DELIVERIES ?? 100_000);
const IN_FLIGHT = Number(process.env.BENCH_IN_FLIGHT ?? 8);
/** The XMPP reference (deliveries/s) the half-load latency run is paced at, by conversation size. */
const REFERENCE: Record<number, number> = { 100: 44_000, 1000: 28_000 };
const DOMAIN = 'example.com';

const index = (i: number) => new Uint8Array(new Uint32Array([i]).buffer);

function otrMessage(sender: SeededUser, users: SeededUser[], i: number): Uint8Array {
  const text = new Uint8Array(64);
  return proteus.QualifiedNewOtrMessage.encode(
    proteus.QualifiedNewOtrMessage.create({
      sender: { client: Long.fromString(sender.clients[0]!, true, 16) },
      recipients: [
        {
          domain: DOMAIN,
          entries: users
            .filter((u) => u !== sender)
            .map((u) => ({
              user: { uuid: Buffer.from(u.id.replace(/-/g, ''), 'hex') },
              clients: u.clients.map((cl) => ({ client: { client: Long.fromString(cl, true, 16) }, text })),
            })),
        },
      ],
      reportAll: {},
      blob: index(i),
    }),
  ).finish();
}

/**
 * Each run gets its own connection pool: a connection left idle between runs (seeding, opening
 * thousands of sockets) may be closed by the server just as a POST is written to it.
 */
let pool = new Agent();
async function freshPool(): Promise<void> {
  await pool.close();
  pool = new Agent();
}

async function post(
  url: string,
  body: Uint8Array,
  headers: Record<string, string>,
  method: 'POST' | 'PUT' = 'POST',
  status = 201,
): Promise<void> {
  const res = await request(url, { method, headers, body: Buffer.from(body), dispatcher: pool });
  const text = await res.body.text();
  if (res.statusCode !== status) throw new Error(`send: ${res.statusCode} ${text}`);
}

async function phase<T>(name: string, run: () => Promise<T>): Promise<T> {
  await freshPool();
  try {
    return await run();
  } catch (err) {
    throw new Error(`${name}: ${err instanceof Error ? err.message : String(err)}`, {
      cause: err instanceof Error ? err.cause : undefined,
    });
  }
}

function row(n: number, what: string, r: RunResult, note = ''): void {
  console.log(
    `${String(n).padStart(7)}  ${what.padEnd(22)} ${r.messagesPerSecond.toFixed(1).padStart(10)} ${r.deliveriesPerSecond.toFixed(0).padStart(12)} ${r.p50.toFixed(1).padStart(8)} ${r.p99.toFixed(1).padStart(8)}  ${note}`,
  );
}

const b = await benchBackend();
const baseline = await baselineServer();
try {
  console.log(pinServerToOneCore());
  console.log(`maximum: ${IN_FLIGHT} sends in flight; paced: one send every 1/rate s`);
  console.log('members  run                    messages/s deliveries/s  p50 ms   p99 ms');
  for (const [n, kind] of [
    ...SIZES.map((n) => [n, 'proteus'] as const),
    ...EVENT_SIZES.map((n) => [n, 'rename'] as const),
  ]) {
    try {
      await run(n, kind);
    } catch (err) {
      console.log(
        `${String(n).padStart(7)}  failed: ${err instanceof Error ? `${err.message} ${String((err as { cause?: unknown }).cause ?? '')}` : String(err)}`,
      );
    }
  }
} finally {
  await baseline.dispose();
  await b.dispose();
}

async function run(n: number, kind: 'proteus' | 'rename'): Promise<void> {
  const base = b.publicUrl.origin;
  const ws = base.replace(/^http/, 'ws');
  const { conv, users } = await seedConversation(b.db, b.stateDir, {
    members: n,
    clientsPerUser: () => 1,
    domain: DOMAIN,
  });
  const [sender, ...receivers] = users as [SeededUser, ...SeededUser[]];
  const count = Math.max(10, Math.min(2000, Math.ceil(DELIVERIES_PER_RUN / receivers.length)));

  const bare = await phase('bare broadcast', () =>
    runFanOut(
      {
        socketUrls: receivers.map(() => `${baseline.url.origin.replace(/^http/, 'ws')}/ws`),
        send: (i) => {
          const frame = { payload: [{ type: 'conversation.rename', data: { name: `bench-${i}` } }] };
          return post(`${baseline.url.origin}/send`, new TextEncoder().encode(JSON.stringify(frame)), {});
        },
      },
      count,
      { closed: IN_FLIGHT },
    ),
  );
  row(n, 'bare DO broadcast, max', bare);

  const socketUrls = receivers.map((u) => `${ws}/v8/await?access_token=${u.token}&client=${u.clients[0]}`);
  const bodies = kind === 'proteus' ? Array.from({ length: count + 1 }, (_, i) => otrMessage(sender, users, i)) : [];
  const ours = {
    socketUrls,
    send: (i: number) =>
      kind === 'proteus'
        ? post(`${base}/v8/conversations/${DOMAIN}/${conv}/proteus/messages`, bodies[i]!, {
            authorization: `Bearer ${sender.token}`,
            'content-type': 'application/x-protobuf',
          })
        : post(
            `${base}/v8/conversations/${DOMAIN}/${conv}/name`,
            new TextEncoder().encode(JSON.stringify({ name: `bench-${i}` })),
            { authorization: `Bearer ${sender.token}`, 'content-type': 'application/json' },
            'PUT',
            200,
          ),
  };
  const inspector = process.env.BENCH_INSPECTOR;
  const measure = () => phase('ours', () => runFanOut(ours, count, { closed: IN_FLIGHT }));
  const max = inspector === undefined ? await measure() : await profileWorker(Number(inspector), measure);
  row(
    n,
    kind === 'proteus' ? 'ours, max' : 'ours (renames), max',
    max,
    `${((max.deliveriesPerSecond / bare.deliveriesPerSecond) * 100).toFixed(0)}% of bare`,
  );
  const reference = kind === 'proteus' ? REFERENCE[n] : undefined;
  if (reference !== undefined) {
    const rate = reference / 2 / receivers.length;
    const half = await phase('ours, paced', () => runFanOut(ours, Math.min(count, Math.ceil(rate * 5)), { rate }));
    row(n, `ours, ${reference / 2}/s paced`, half, `reference ${reference}/s at full load`);
  }
}
