// The MLS delivery service: what a commit costs the server, and how an application message fans
// out, on the backend as `npm start` runs it. Each group is real: its members are users made
// through the API (one client each, its MLS signature key registered with PUT /clients; see
// lib/api-mls.ts), then the creator's ts-mls client makes the group and adds everybody through
// POST /mls/commit-bundles, so the backend's epoch and leaves are its own.
//
// 1. Commits: one at a time (no concurrency), posted by the creator: empty commits with an update
//    path (a client rotating its keys; the path is encrypted to every other leaf, as in any group
//    whose members have not committed yet) and commits adding one new client of a member. Server
//    CPU is workerd's own CPU time over each request (all its threads, lib/server-cpu.ts).
// 2. Fan-out: one sender's application messages (one ciphertext for every member) to a group whose
//    members each have one client on a websocket, beside a bare Durable Object broadcasting the
//    same frames to as many sockets, in the same run. workerd pinned to one core, the clients to
//    the others.
import { Agent, request } from 'undici';
import { apiMlsConversation, type MlsConversation } from './lib/api-mls.js';
import { percentile } from './lib/backend.js';
import { baselineServer } from './lib/baseline.js';
import { runFanOut, type RunResult } from './lib/fan-out-run.js';
import { mlsFrameIndex } from './lib/mls-fan-out.js';
import { BenchGroup } from './lib/mls-group.js';
import { npmStart } from './lib/npm-start.js';
import { pinServerToOneCore } from './lib/pin.js';
import { profileWorker } from './lib/profile.js';
import { serverCpuReader } from './lib/server-cpu.js';

const list = (v: string | undefined, d: string) => (v ?? d).split(',').filter(Boolean).map(Number);
/** Group sizes (clients, one per member) whose commits are measured. */
const SIZES = list(process.env.BENCH_SIZES, '10,100,1000');
/** Group sizes whose application-message fan-out is measured. */
const FAN_OUT_SIZES = list(process.env.BENCH_FAN_OUT_SIZES, '100,1000');
/** Commits of each kind per size (fewer at 1,000: each update commit is stored once per member). */
const commitsAt = (n: number) => Number(process.env.BENCH_COMMITS ?? (n >= 1000 ? 20 : 50));
const DELIVERIES_PER_RUN = Number(process.env.BENCH_DELIVERIES ?? 100_000);
const IN_FLIGHT = Number(process.env.BENCH_IN_FLIGHT ?? 8);
const INSPECTOR = process.env.BENCH_INSPECTOR;
const DOMAIN = 'example.com';
/** nginz's max_body_size for /mls/commit-bundles: the setup's adds are split into commits that fit. */
const BODY_LIMIT = 2048 * 1024;

/** Each phase gets its own connection pool (an idle connection may be closed just as a POST is written to it). */
let pool = new Agent();
async function freshPool(): Promise<void> {
  await pool.close();
  pool = new Agent();
}

async function post(url: string, body: Uint8Array | string, headers: Record<string, string> = {}): Promise<void> {
  const res = await request(url, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : Buffer.from(body),
    dispatcher: pool,
  });
  const text = await res.body.text();
  if (res.statusCode !== 201) throw new Error(`POST ${new URL(url).pathname}: ${res.statusCode} ${text.slice(0, 300)}`);
}

const mls = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'message/mls' });
const kb = (bytes: number) => (bytes / 1024).toFixed(1);
const failed = (n: number, err: unknown) =>
  console.log(`${String(n).padStart(7)}  failed: ${err instanceof Error ? err.message : String(err)}`);

/** A table line: the members, a left-aligned label, then right-aligned cells of these widths. */
const line =
  (label: number, widths: number[]) =>
  (cells: Array<string | number>, note = '') =>
    console.log(
      `${String(cells[0]).padStart(7)}  ${String(cells[1]).padEnd(label)}${cells
        .slice(2)
        .map((c, i) => ` ${String(c).padStart(widths[i]!)}`)
        .join('')}${note ? `  ${note}` : ''}`,
    );
const commitLine = line(26, [9, 7, 10, 10, 11, 11]);
const fanOutLine = line(22, [10, 12, 9, 9, 10]);
const measured = <T>(run: () => Promise<T>) =>
  INSPECTOR === undefined ? run() : profileWorker(Number(INSPECTOR), run);

interface Group extends MlsConversation {
  n: number;
  group: BenchGroup;
}

/** `n` members in the group (and `spare` more in the conversation only, whose clients the add commits add). */
async function makeGroup(n: number, spare: number): Promise<Group> {
  const seeded = await apiMlsConversation(b, { members: n + spare, domain: DOMAIN });
  const keys = (await (
    await fetch(`${b.publicUrl.origin}/v8/mls/public-keys`, { headers: mls(seeded.creatorToken) })
  ).json()) as { removal: Record<string, string> };
  const group = await BenchGroup.create(
    seeded.groupId,
    seeded.mls[0]!,
    new Uint8Array(Buffer.from(keys.removal.ed25519!, 'base64')),
  );
  const start = performance.now();
  let biggest = 0;
  const commits = await group.addAll(seeded.mls.slice(1, n), BODY_LIMIT, (body) => {
    biggest = Math.max(biggest, body.length);
    return post(`${b.publicUrl.origin}/v8/mls/commit-bundles`, body, mls(seeded.creatorToken));
  });
  console.log(
    `${String(n).padStart(7)}  group made: ${n - 1} clients added by ${commits} commit(s) of up to ${kb(biggest)} KB in ${((performance.now() - start) / 1000).toFixed(1)} s (client time included)`,
  );
  return { ...seeded, n, group };
}

/** Posts `count` commits made by `next`, one at a time; prints server CPU and wall time per commit. */
async function commits(
  g: Group,
  kind: string,
  count: number,
  next: (i: number) => Promise<{ body: Uint8Array; accept(): void }>,
) {
  const cpu = serverCpuReader();
  const cpuMs: number[] = [];
  const wallMs: number[] = [];
  let bytes = 0;
  await measured(async () => {
    for (let i = 0; i < count; i++) {
      const bundle = await next(i);
      bytes += bundle.body.length;
      const cpu0 = cpu?.();
      const t0 = performance.now();
      await post(`${b.publicUrl.origin}/v8/mls/commit-bundles`, bundle.body, mls(g.creatorToken));
      wallMs.push(performance.now() - t0);
      // What the server does after answering (a shard's storage, timers) is the commit's too.
      await new Promise((r) => setTimeout(r, 20));
      if (cpu0 !== undefined) cpuMs.push((cpu!() - cpu0) / 1e6);
      bundle.accept();
    }
  });
  for (const xs of [cpuMs, wallMs]) xs.sort((x, y) => x - y);
  const p = (xs: number[], q: number) => (xs.length === 0 ? 'n/a' : percentile(xs, q).toFixed(1));
  commitLine([g.n, kind, kb(bytes / count), count, p(cpuMs, 50), p(cpuMs, 99), p(wallMs, 50), p(wallMs, 99)]);
}

const fanOutRow = (n: number, what: string, r: RunResult, note = '') =>
  fanOutLine(
    [
      n,
      what,
      r.messagesPerSecond.toFixed(1),
      r.deliveriesPerSecond.toFixed(0),
      r.p50.toFixed(1),
      r.p99.toFixed(1),
      `${(r.clientCpu * 100).toFixed(0)}%`,
    ],
    note,
  );

/** Application messages from the creator to everybody else, ours and the bare broadcast. */
async function fanOut(g: Group): Promise<void> {
  const receivers = g.users.slice(1, g.n);
  const count = Math.max(10, Math.min(2000, Math.ceil(DELIVERIES_PER_RUN / receivers.length)));
  const messages = await g.group.applicationMessages(count + 1);
  const data = messages.map((m) => Buffer.from(m).toString('base64'));
  const bareUrl = baseline.url.origin;
  await freshPool();
  const indexOf = mlsFrameIndex(data);
  const bare = await runFanOut(
    {
      socketUrls: receivers.map(() => `${bareUrl.replace(/^http/, 'ws')}/ws`),
      indexOf,
      send: (i) =>
        post(`${bareUrl}/send`, JSON.stringify({ payload: [{ type: 'conversation.mls-message-add', data: data[i] }] })),
    },
    count,
    { closed: IN_FLIGHT },
  );
  fanOutRow(g.n, 'bare DO broadcast, max', bare);
  await freshPool();
  const ws = b.publicUrl.origin.replace(/^http/, 'ws');
  const ours = await measured(() =>
    runFanOut(
      {
        socketUrls: receivers.map((u) => `${ws}/v8/await?access_token=${u.token}&client=${u.clients[0]}`),
        indexOf,
        send: (i) => post(`${b.publicUrl.origin}/v8/mls/messages`, messages[i]!, mls(g.creatorToken)),
      },
      count,
      { closed: IN_FLIGHT },
    ),
  );
  fanOutRow(
    g.n,
    'ours, max',
    ours,
    `${((ours.deliveriesPerSecond / bare.deliveriesPerSecond) * 100).toFixed(0)}% of bare`,
  );
}

/**
 * A 1,000-member group is larger than the shipped configuration allows (500), and its creator,
 * connected to every member and to the spare users the add commits bring, passes the 1,000
 * connections a user may have.
 */
const b = await npmStart(
  [
    ['galley.yaml', ['settings', 'maxConvSize'], 2000],
    ['brig.yaml', ['optSettings', 'setMaxConvSize'], 2000],
    ['brig.yaml', ['optSettings', 'setUserMaxConnections'], 2000],
  ],
  INSPECTOR === undefined ? {} : { inspectorPort: Number(INSPECTOR) },
);
const baseline = await baselineServer();
try {
  console.log(pinServerToOneCore());
  const sizes = [...new Set([...SIZES, ...FAN_OUT_SIZES])].sort((x, y) => x - y);
  const groups = new Map<number, Group>();
  console.log(
    'setup (not measured): users, clients and the conversation through the API, ts-mls groups, suite 1 (X25519/AES-128-GCM/Ed25519), one client per member',
  );
  for (const n of sizes) {
    try {
      groups.set(n, await makeGroup(n, SIZES.includes(n) ? commitsAt(n) : 0));
    } catch (err) {
      failed(n, err);
    }
  }
  console.log(
    `\nMLS application messages: ${IN_FLIGHT} sends in flight, one ciphertext for every member; client CPU: the load client's share of one core (near 100%: the client is the limit)`,
  );
  fanOutLine(['members', 'run', 'messages/s', 'deliveries/s', 'p50 ms', 'p99 ms', 'client CPU']);
  for (const n of FAN_OUT_SIZES) {
    const g = groups.get(n);
    if (g !== undefined) await fanOut(g).catch((err) => failed(n, err));
  }
  console.log(
    `\ncommit bundles, one at a time: server CPU = workerd's CPU time per commit (${serverCpuReader() === undefined ? 'not available here: n/a' : 'all threads, /proc schedstat'}), wall = request to response`,
  );
  commitLine(['members', 'commit', 'bundle KB', 'commits', 'CPU p50 ms', 'CPU p99 ms', 'wall p50 ms', 'wall p99 ms']);
  for (const n of SIZES) {
    const g = groups.get(n);
    if (g === undefined) continue;
    try {
      const count = commitsAt(n);
      await freshPool();
      await commits(g, 'update (empty, with path)', count, () => g.group.commit());
      await commits(g, 'add one client (no path)', count, (i) => g.group.commit([g.mls[n + i]!.keyPackage]));
    } catch (err) {
      failed(n, err);
    }
  }
} finally {
  await baseline.dispose();
  await b.stop();
}
