// Fan-out: one sender, one conversation of N members with one client each, every client on a
// websocket, every event persisted for its recipient (readable later with GET /notifications).
// The members are made as clients make them, through the public API (api-seed.ts); beside some
// sizes, the same run with members written into D1 (seed.ts) shows what that shortcut hides.
// Measured against a bare Durable Object broadcasting to as many sockets, in the same run, with
// the server (workerd) pinned to one core and the load client on the other; the client finds a
// frame's message without parsing it, and its CPU share is printed beside every figure.
//
// Targets (issue 17): ours ≥ 0.5× the bare broadcast at 100 and 1,000 members; p99 at half our
// maximum ≤ 10 ms at 100 and ≤ 90 ms at 1,000; 10,000 members of whom 1,000 are online cost at
// most 1.2× per recipient what 1,000 online members cost; 1,000 missed notifications read back
// in order, through GET /notifications and /events.
import { benchBackend } from './lib/backend.js';
import { baselineServer } from './lib/baseline.js';
import { runFanOut, type FanOutTarget, type RunResult } from './lib/fan-out-run.js';
import { readMissed } from './lib/missed-read.js';
import { otrMessage, phase, send } from './lib/otr-load.js';
import { pinServerToOneCore } from './lib/pin.js';
import { profileWorker } from './lib/profile.js';
import { seedConversation, type SeededUser } from './lib/seed.js';
import { apiConversation, type ApiUser, type Listening } from './lib/api-seed.js';
import { npmStart } from './lib/npm-start.js';
import type { Edit } from '../tools/lib/config-edit.js';
import { serverCpuReader } from './lib/server-cpu.js';
import { processTree } from '../tools/lib/process-tree.js';

const SIZES = (process.env.BENCH_SIZES ?? '10,100,1000').split(',').filter(Boolean).map(Number);
/** Sizes also measured with members made the shortcut way (written into D1, tokens signed here). */
const SEEDED_SIZES = (process.env.BENCH_SEEDED_SIZES ?? '100,1000').split(',').filter(Boolean).map(Number);
/** `members:online`: a large conversation most of whose members are offline. */
const [OFFLINE_MEMBERS, ONLINE_MEMBERS] = (process.env.BENCH_OFFLINE ?? '10000:1000').split(':').map(Number) as [
  number,
  number,
];
const MISSED = Number(process.env.BENCH_MISSED ?? 1000);
const DELIVERIES_PER_RUN = Number(process.env.BENCH_DELIVERIES ?? 100_000);
const IN_FLIGHT = Number(process.env.BENCH_IN_FLIGHT ?? 8);
const DOMAIN = 'example.com';
/** A run whose load client used this much of its core may have measured the client. */
const CLIENT_BOUND = 0.9;

// Conversations of 1,000 members made through the API: past the shipped 500.
const EDITS: Edit[] = [
  ['galley.yaml', ['settings', 'maxConvSize'], 2000],
  ['brig.yaml', ['optSettings', 'setMaxConvSize'], 2000],
];
const INSPECTOR = process.env.BENCH_INSPECTOR;
const baseline = await baselineServer();
/** The backend being measured: where it listens, and the CPU its workerd processes have used. */
interface Served {
  urls: Listening;
  cpu: (() => number) | undefined;
}
const workerdMb = () =>
  processTree(process.pid)
    .filter((p) => p.name === 'workerd')
    .reduce((sum, p) => sum + p.rss, 0) /
  1024 /
  1024;

const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
const client = (r: RunResult) => `${pct(r.clientCpu)}${r.clientCpu >= CLIENT_BOUND ? ' (client-bound)' : ''}`;
const perDelivery = (r: RunResult, recipients: number, count: number) =>
  r.serverCpuMs === undefined ? NaN : (r.serverCpuMs * 1000) / (recipients * count);

function bareTarget(receivers: number): FanOutTarget {
  const url = `${baseline.url.origin.replace(/^http/, 'ws')}/ws`;
  return {
    socketUrls: Array.from({ length: receivers }, () => url),
    send: async (i) => {
      const frame = { payload: [{ type: 'conversation.rename', data: { name: `bench-${i}` } }] };
      await send(`${baseline.url.origin}/send`, new TextEncoder().encode(JSON.stringify(frame)), {});
    },
  };
}

function oursTarget(
  server: Served,
  conv: string,
  sender: SeededUser,
  users: SeededUser[],
  online: SeededUser[],
  count: number,
) {
  const { origin } = server.urls.publicUrl;
  const ws = origin.replace(/^http/, 'ws');
  const bodies = Array.from({ length: count + 1 }, (_, i) => otrMessage(sender, users, i, DOMAIN));
  const headers = { authorization: `Bearer ${sender.token}`, 'content-type': 'application/x-protobuf' };
  const url = `${origin}/v8/conversations/${DOMAIN}/${conv}/proteus/messages`;
  return {
    socketUrls: online.map((u) => `${ws}/v8/await?access_token=${u.token}&client=${u.clients[0]}`),
    send: async (i: number) => void (await send(url, bodies[i]!, headers)),
    serverCpu: server.cpu,
  };
}

const TABLE =
  'members  path     bare del/s (client)     ours del/s (client)     ours/bare  half-load p50/p99 ms   bare at that rate   server µs/delivery  workerd MB';
/** Server CPU per recipient of the seeded runs: the offline run (seeded) is compared with them. */
const perRecipient = new Map<number, number>();
/** Each size's maximum run on the real path: with every member in one notification shard, what one object sustains. */
const maxima = new Map<number, RunResult>();
const failed = (what: string, err: unknown) =>
  console.log(`${what} failed: ${err instanceof Error ? err.message : String(err)}`);
try {
  // The real path: npm start's process, its state on disk, members made through the public API.
  const real = await npmStart(EDITS, INSPECTOR === undefined ? {} : { inspectorPort: Number(INSPECTOR) });
  try {
    const server = { urls: real, cpu: serverCpuReader() };
    console.log(`npm start (its processes, state on disk); ${pinServerToOneCore()}`);
    console.log(
      `proteus messages, one client per member, every client on /await; maximum = ${IN_FLIGHT} sends in flight, half = paced at half our maximum`,
    );
    console.log(
      'api: users registered with their mailed code and logged in, clients with prekeys, connections and the conversation made through the public API',
    );
    console.log(TABLE);
    for (const n of SIZES) await sizeRun(server, n).catch((err) => failed(String(n).padStart(7), err));
    oneObject();
    await missedRun(server).catch((err) => failed('missed-notifications run', err));
  } finally {
    await real.stop();
  }
  // The shortcut beside it: members written into the D1 of a memory-backed backend, tokens signed here.
  const shortcut = await benchBackend();
  try {
    const server = { urls: shortcut, cpu: serverCpuReader() };
    console.log(
      `\nseeded beside it (members written into D1, tokens signed here, state in memory); ${pinServerToOneCore()}`,
    );
    console.log(TABLE);
    for (const n of SEEDED_SIZES) await sizeRun(server, n, shortcut).catch((err) => failed(String(n).padStart(7), err));
    await offlineRun(server, shortcut).catch((err) => failed('offline run', err));
  } finally {
    await shortcut.dispose();
  }
} finally {
  await baseline.dispose();
}

type Seedable = Awaited<ReturnType<typeof benchBackend>>;

/** One size's row; members through the API unless a seedable backend is given. */
async function sizeRun(server: Served, n: number, seedable?: Seedable): Promise<void> {
  const path = seedable === undefined ? 'api' : 'seeded';
  const { conv, users } =
    seedable === undefined
      ? await phase('members through the API', () => apiConversation(server.urls, n, DOMAIN))
      : await seedConversation(seedable.db, seedable.stateDir, { members: n, clientsPerUser: () => 1, domain: DOMAIN });
  const [sender, ...receivers] = users as [SeededUser, ...SeededUser[]];
  const count = Math.max(20, Math.min(2000, Math.ceil(DELIVERIES_PER_RUN / receivers.length)));
  const bare = await phase('bare broadcast', () =>
    runFanOut(bareTarget(receivers.length), count, { closed: IN_FLIGHT }),
  );
  const ours = oursTarget(server, conv, sender, users, receivers, count);
  const measure = () => phase('ours', () => runFanOut(ours, count, { closed: IN_FLIGHT }));
  const profiled = INSPECTOR !== undefined && path === 'api';
  const max = profiled ? await profileWorker(Number(INSPECTOR), measure) : await measure();
  const rate = max.deliveriesPerSecond / 2 / receivers.length;
  const half = await phase('ours, half load', () =>
    runFanOut(ours, Math.min(count, Math.max(20, Math.ceil(rate * 5))), { rate }),
  );
  // The runtime's own latency at the same rate: what is left of our p99 once that is taken away is ours.
  const bareHalf = await phase('bare, our half load', () =>
    runFanOut(bareTarget(receivers.length), Math.min(count, Math.max(20, Math.ceil(rate * 5))), { rate }),
  );
  const cpu = perDelivery(max, receivers.length, count);
  if (path === 'seeded') perRecipient.set(n, cpu);
  else maxima.set(n, max);
  console.log(
    `${String(n).padStart(7)}  ${path.padEnd(7)}  ${bare.deliveriesPerSecond.toFixed(0).padStart(8)} (${client(bare)})`.padEnd(
      35,
    ) +
      ` ${max.deliveriesPerSecond.toFixed(0).padStart(8)} (${client(max)})`.padEnd(24) +
      ` ${(max.deliveriesPerSecond / bare.deliveriesPerSecond).toFixed(2).padStart(8)}×` +
      `   ${half.p50.toFixed(1).padStart(7)} / ${half.p99.toFixed(1).padEnd(7)} (client ${pct(half.clientCpu)})` +
      `   ${bareHalf.p50.toFixed(1).padStart(5)} / ${bareHalf.p99.toFixed(1).padEnd(6)}` +
      `   ${cpu.toFixed(1).padStart(8)}     ${workerdMb().toFixed(0).padStart(8)}`,
  );
}

/**
 * What one notification object sustains here: every member of these conversations lives in one
 * shard (they were placed together), so each message is one append call to one object.
 */
function oneObject(): void {
  const fewest = maxima.get(Math.min(...maxima.keys()));
  const most = Math.max(...maxima.keys());
  if (fewest === undefined) return;
  console.log(
    `\none notification object: ${fewest.messagesPerSecond.toFixed(0)} appends/s (${Math.min(...maxima.keys())} members), ` +
      `${maxima.get(most)!.deliveriesPerSecond.toFixed(0)} deliveries/s and ${most - 1} sockets held (${most} members)`,
  );
}

/** Every member gets the message; only some are on sockets. Cost per recipient, against the all-online figure. */
async function offlineRun(server: Served, seedable: Seedable): Promise<void> {
  const { conv, users } = await seedConversation(seedable.db, seedable.stateDir, {
    members: OFFLINE_MEMBERS,
    clientsPerUser: () => 1,
    domain: DOMAIN,
  });
  const [sender, ...receivers] = users as [SeededUser, ...SeededUser[]];
  const count = 50;
  const ours = oursTarget(server, conv, sender, users, receivers.slice(0, ONLINE_MEMBERS), count);
  const r = await phase('offline members', () => runFanOut(ours, count, { closed: IN_FLIGHT }));
  const cpu = perDelivery(r, receivers.length, count);
  const reference = perRecipient.get(ONLINE_MEMBERS);
  console.log(
    `\n${OFFLINE_MEMBERS} members (seeded), ${ONLINE_MEMBERS} online: ${r.messagesPerSecond.toFixed(1)} messages/s, ` +
      `server ${cpu.toFixed(1)} µs per recipient (all ${receivers.length} stored)` +
      (reference === undefined
        ? ''
        : `, ${(cpu / reference).toFixed(2)}× the seeded ${ONLINE_MEMBERS}-member figure (target ≤ 1.2×)`) +
      `, client ${client(r)}`,
  );
}

async function missedRun(server: Served): Promise<void> {
  const { conv, users } = await phase('members through the API', () => apiConversation(server.urls, 100, DOMAIN));
  const [sender, legacy, queue] = users as [ApiUser, ApiUser, ApiUser];
  const ours = oursTarget(server, conv, sender, users, [], MISSED);
  const r = await phase('missed notifications', () => readMissed(server.urls, { legacy, queue }, MISSED, ours.send));
  console.log(
    `${MISSED} missed notifications read back in order, nothing lost or twice: GET /notifications (pages of 500) ${r.pagedMs.toFixed(0)} ms, /events ${r.eventsMs.toFixed(0)} ms`,
  );
}
