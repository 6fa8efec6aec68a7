// The MLS delivery service: what a commit costs the server, and how an application message fans
// out, on the backend as `npm start` runs it. Each group is real: its members are users made
// through the API (one client each, its MLS signature key registered with PUT /clients; see
// lib/api-mls.ts), then the creator's ts-mls client makes the group and adds everybody through
// POST /mls/commit-bundles, so the backend's epoch and leaves are its own. The setup's time per
// stage is printed; before anything is measured, workerd is left to close the objects the last
// phase woke (lib/server-cpu.ts `quiet`).
//
// 1. Commits: one at a time (no concurrency), each kind's built first and sent back to back (at
//    10,000 members a commit takes the client seconds to build: objects would go idle in between),
//    the first unmeasured (it wakes the objects workerd closed while it got quiet). Server CPU is
//    workerd's own CPU time over each request and 20 ms after it (all its threads,
//    lib/server-cpu.ts). In this order, on each group:
//    - the creator's empty commits with an update path (a client rotating its keys; the path is
//      encrypted to every other leaf, as in any group whose members have not committed yet);
//    - at the smallest size only, the same commits padded to a 10,000-member group's bundle size
//      (PADDED): what its bytes cost without its size;
//    - the creator's commits adding one new client of a spare user (who joins the conversation);
//    - the creator's commits removing one of those again (the user leaves), with a path;
//    - external commits: a member's client rejoins from the GroupInfo the backend serves, its old
//      leaf removed, as a Wire client that lost its state (the creator processes each; a few
//      members, their private keys kept, rejoin in turn);
//    - backend remove proposals: a member deletes their client (DELETE /clients), the backend
//      proposes its leaf's removal to the group. Last: the proposals stay pending (a commit would
//      have to reference them).
// 2. Fan-out: one sender's application messages (one ciphertext for every member) to a group whose
//    first BENCH_ONLINE receivers have their client on a websocket (the others' are stored only),
//    beside a bare Durable Object broadcasting the same frames to as many sockets, in the same
//    run. workerd pinned to one core, the clients to the others.
import { Agent, request } from 'undici';
import { DELETE, type Edit } from '../tools/lib/config-edit.js';
import { apiMlsConversation, type MlsConversation, stage } from './lib/api-mls.js';
import { call, PASSWORD } from './lib/api-seed.js';
import { percentile } from './lib/backend.js';
import { baselineServer } from './lib/baseline.js';
import { runFanOut, type RunResult } from './lib/fan-out-run.js';
import { mlsFrameIndex } from './lib/mls-fan-out.js';
import { BenchGroup, type Bundle } from './lib/mls-group.js';
import { npmStart } from './lib/npm-start.js';
import { pinServerToOneCore } from './lib/pin.js';
import { profileWorker } from './lib/profile.js';
import type { SeededUser } from './lib/seed.js';
import { quiet, serverCpuReader } from './lib/server-cpu.js';

const list = (v: string | undefined, d: string) => (v ?? d).split(',').filter(Boolean).map(Number);
/** Group sizes (clients, one per member) whose commits are measured. */
const SIZES = list(process.env.BENCH_SIZES, '10,100,1000,10000');
/** Group sizes whose application-message fan-out is measured. */
const FAN_OUT_SIZES = list(process.env.BENCH_FAN_OUT_SIZES, '100,1000,10000');
/** Receivers of a fan-out with their client online (on a websocket); at 10,000 members, a tenth. */
const ONLINE = Number(process.env.BENCH_ONLINE ?? 1000);
/**
 * Commits of each kind per size: fewer from 1,000, and 5 at 10,000, where the creator's client
 * takes tens of seconds to build each (a rejoin, minutes).
 */
const commitsAt = (n: number) => Number(process.env.BENCH_COMMITS ?? (n >= 10_000 ? 5 : n >= 1000 ? 20 : 50));
/**
 * The smallest group's update commits padded to a 10,000-member group's bundle (3,517 KB: the
 * commit's update path about 0.8 MB, the GroupInfo's ratchet tree about 2.7 MB), as random bytes
 * the backend carries without reading: what the bytes cost apart from the group's size.
 */
const PADDED = { commit: 820_000, groupInfo: 2_690_000 };
/** The padded update commits' kind, at the smallest size measured only. */
const padded = (n: number, build: () => Promise<Step[]>): Array<[string, () => Promise<Step[]>]> =>
  n === Math.min(...SIZES) ? [[`update padded to ${kb(PADDED.commit + PADDED.groupInfo)} KB`, build]] : [];
/** Members who rejoin by external commits (their private keys kept), in turn. */
const rejoinersAt = (n: number) => Math.min(commitsAt(n), n - 1);
/** Requests of a setup stage in flight. */
const SETUP_WIDTH = Number(process.env.BENCH_SETUP_WIDTH ?? 16);
const DELIVERIES_PER_RUN = Number(process.env.BENCH_DELIVERIES ?? 100_000);
const IN_FLIGHT = Number(process.env.BENCH_IN_FLIGHT ?? 8);
const INSPECTOR = process.env.BENCH_INSPECTOR;
const DOMAIN = 'example.com';
/** nginz's max_body_size for /mls/commit-bundles: the setup's adds are split into commits that fit. */
const BODY_LIMIT = 16 * 1024 * 1024;
/**
 * Clients the setup adds per commit. Each added user costs the commit's request a few object
 * calls (their keys and key packages, their list of conversations): 9,999 in one request opened
 * as many Account objects at once (workerd's SQLite ran out of memory) and would pass the 10,000
 * subrequests of one invocation on Cloudflare; 1,000 fit.
 */
const ADDS_PER_COMMIT = Number(process.env.BENCH_ADDS_PER_COMMIT ?? 1000);

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
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
/** An error's message, with its cause's (fetch's own says only "fetch failed"). */
const reason = (err: unknown): string => {
  if (!(err instanceof Error)) return String(err);
  return err.cause === undefined ? err.message : `${err.message} (${reason(err.cause)})`;
};
const failed = (n: number, what: string, err: unknown) =>
  console.log(`${String(n).padStart(7)}  ${what} failed: ${reason(err)}`);

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

/**
 * `n` members in the group (and `spare` more users, whose clients the add commits add); the first
 * `rejoiners` members after the creator keep their private keys. Prints the time of each stage.
 */
async function makeGroup(n: number, spare: number, rejoiners: number): Promise<Group> {
  const start = performance.now();
  const seeded = await apiMlsConversation(b, {
    members: n + spare,
    domain: DOMAIN,
    keepPrivate: rejoiners,
    width: SETUP_WIDTH,
  });
  const keys = (await (
    await fetch(`${b.publicUrl.origin}/v8/mls/public-keys`, { headers: mls(seeded.creatorToken) })
  ).json()) as { removal: Record<string, string> };
  const group = await BenchGroup.create(
    seeded.groupId,
    seeded.mls[0]!,
    new Uint8Array(Buffer.from(keys.removal.ed25519!, 'base64')),
  );
  let biggest = 0;
  const commits = await stage(seeded.stages, 'group', () =>
    group.addAll(seeded.mls.slice(1, n), { maxBytes: BODY_LIMIT, maxClients: ADDS_PER_COMMIT }, (body) => {
      biggest = Math.max(biggest, body.length);
      return post(`${b.publicUrl.origin}/v8/mls/commit-bundles`, body, mls(seeded.creatorToken));
    }),
  );
  const stages = seeded.stages.map(
    (s) => `${s.stage} ${seconds(s.ms)}${s.cpuMs === undefined ? '' : ` (server CPU ${seconds(s.cpuMs)})`}`,
  );
  console.log(
    `${String(n).padStart(7)}  set up in ${seconds(performance.now() - start)}: ${stages.join(', ')}; ${n + spare} users, ${n - 1} clients added by ${commits} commit(s) of up to ${kb(biggest)} KB (client time included); ${await quiet()}`,
  );
  return { ...seeded, n, group };
}

/** One measured request: how to send it, its body's size (if it has one), what follows it unmeasured. */
interface Step {
  send(): Promise<void>;
  bytes?: number;
  after?(): Promise<void>;
}

/** A commit bundle posted by the client of `token`: the creator's state moves on once it is taken. */
const bundleStep = (bundle: Bundle, token: string): Step => ({
  send: () => post(`${b.publicUrl.origin}/v8/mls/commit-bundles`, bundle.body, mls(token)),
  bytes: bundle.body.length,
  after: bundle.accept,
});

/** The user deletes their (only) client: the backend proposes the removal of its leaf. */
const deleteClient = (u: SeededUser): Step => ({
  send: () =>
    call(b.publicUrl, `/v8/clients/${u.clients[0]}`, {
      method: 'DELETE',
      token: u.token,
      body: { password: PASSWORD },
    }),
});

/** The GroupInfo the backend serves member `i`, for an external commit. */
async function groupInfo(g: Group, i: number): Promise<Uint8Array> {
  const res = await request(`${b.publicUrl.origin}/v8/conversations/${DOMAIN}/${g.conv}/groupinfo`, {
    headers: { authorization: `Bearer ${g.users[i]!.token}` },
    dispatcher: pool,
  });
  const bytes = new Uint8Array(await res.body.arrayBuffer());
  if (res.statusCode !== 200) throw new Error(`GET groupinfo: ${res.statusCode} ${Buffer.from(bytes).toString()}`);
  return bytes;
}

/**
 * `count` external commits, members rejoining in turn: the first from the GroupInfo the backend
 * serves, each next from the one the commit before brings (what the backend serves once it took it).
 */
async function rejoins(g: Group, count: number): Promise<Step[]> {
  const steps: Step[] = [];
  let info = await groupInfo(g, 1);
  for (let i = 0; i < count; i++) {
    const member = 1 + (i % rejoinersAt(g.n));
    const bundle = await g.group.rejoin(g.mls[member]!, info);
    info = bundle.groupInfo;
    steps.push(bundleStep(bundle, g.users[member]!.token));
  }
  return steps;
}

/**
 * Sends the requests `build` makes (all built first: client time does not space them out), one at
 * a time once workerd is quiet; prints server CPU and wall time per request. The first goes
 * unmeasured: it wakes the objects workerd closed meanwhile.
 */
async function timed(g: Group, kind: string, build: () => Promise<Step[]>) {
  const steps = await build();
  const note = await quiet();
  const cpu = serverCpuReader();
  const cpuMs: number[] = [];
  const wallMs: number[] = [];
  const sent: Step[] = [];
  try {
    await steps[0]?.send();
    sent.push(...steps.slice(0, 1));
    await measured(async () => {
      for (const step of steps.slice(1)) {
        const cpu0 = cpu?.();
        const t0 = performance.now();
        await step.send();
        sent.push(step);
        wallMs.push(performance.now() - t0);
        // What the server does after answering (a shard's storage, timers) is the request's too.
        await new Promise((r) => setTimeout(r, 20));
        if (cpu0 !== undefined) cpuMs.push((cpu!() - cpu0) / 1e6);
      }
    });
  } finally {
    for (const step of sent) await step.after?.();
  }
  for (const xs of [cpuMs, wallMs]) xs.sort((x, y) => x - y);
  const p = (xs: number[], q: number) => (xs.length === 0 ? 'n/a' : percentile(xs, q).toFixed(1));
  const bytes = steps.slice(1).reduce((sum, s) => sum + (s.bytes ?? Number.NaN), 0);
  const size = Number.isNaN(bytes) ? '-' : kb(bytes / wallMs.length);
  commitLine([g.n, kind, size, wallMs.length, p(cpuMs, 50), p(cpuMs, 99), p(wallMs, 50), p(wallMs, 99)], note);
}

/**
 * Every kind of request that changes the group, at its size (`commitsAt(n)` of each and one to
 * wake the objects); one kind's failure does not stop the others.
 */
async function commitKinds(g: Group): Promise<void> {
  const { n } = g;
  const count = commitsAt(n) + 1;
  const spare = (i: number) => g.mls[n + i]!;
  const byCreator = async (changes: Parameters<BenchGroup['commits']>[1]) =>
    (await g.group.commits(count, changes)).map((bundle) => bundleStep(bundle, g.creatorToken));
  const kinds: Array<[kind: string, build: () => Promise<Step[]>]> = [
    ['update (empty, with path)', () => byCreator(() => ({}))],
    ...padded(n, () => byCreator(() => ({ padding: PADDED }))),
    ['add one client (no path)', () => byCreator((i) => ({ add: [spare(i).keyPackage] }))],
    ['remove one member (path)', () => byCreator((i) => ({ remove: [spare(i)] }))],
    ['external commit (rejoin)', () => rejoins(g, count)],
    [
      'backend remove proposal',
      async () => Array.from({ length: Math.min(count, n - 1) }, (_, i) => deleteClient(g.users[n - 1 - i]!)),
    ],
  ];
  await freshPool();
  for (const [kind, build] of kinds) await timed(g, kind, build).catch((err) => failed(n, kind, err));
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

/** Application messages from the creator to everybody else (the first ONLINE on sockets), ours and the bare broadcast. */
async function fanOut(g: Group): Promise<void> {
  const receivers = g.users.slice(1, 1 + Math.min(g.n - 1, ONLINE));
  const online = `${receivers.length} of ${g.n - 1} online`;
  const count = Math.max(10, Math.min(2000, Math.ceil(DELIVERIES_PER_RUN / receivers.length)));
  const messages = await g.group.applicationMessages(count + 1);
  const data = messages.map((m) => Buffer.from(m).toString('base64'));
  const bareUrl = baseline.url.origin;
  await freshPool();
  const indexOf = mlsFrameIndex(data);
  let waited = await quiet();
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
  fanOutRow(g.n, 'bare DO broadcast, max', bare, `${receivers.length} sockets; ${waited}`);
  await freshPool();
  waited = await quiet();
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
    `${((ours.deliveriesPerSecond / bare.deliveriesPerSecond) * 100).toFixed(0)}% of bare; ${online}; ${waited}`,
  );
}

const sizes = [...new Set([...SIZES, ...FAN_OUT_SIZES])].sort((x, y) => x - y);
/** Room for the largest group and its spare users (conversation size, the creator's connections). */
const room = 2 * Math.max(1000, ...sizes);
/**
 * The shipped configuration with what a 10,000-member group made in one go needs: conversations
 * and the creator's connections beyond 500 and 1,000; cheap password hashes, unthrottled (every
 * member registers, logs in and adds a client with their password; scrypt N=2^14 made that the
 * setup's cost) and no failed-login bookkeeping (an object per login); access tokens that outlive
 * the setup (15 minutes by default).
 */
const edits: Edit[] = [
  ['galley.yaml', ['settings', 'maxConvSize'], room],
  ['brig.yaml', ['optSettings', 'setMaxConvSize'], room],
  ['brig.yaml', ['optSettings', 'setUserMaxConnections'], room],
  [
    'brig.yaml',
    ['optSettings', 'setPasswordHashingOptions'],
    { algorithm: 'argon2id', iterations: 1, memory: 64, parallelism: 1 },
  ],
  ['brig.yaml', ['optSettings', 'setPasswordHashingRateLimit', 'ipAddrLimit', 'inverseRate'], 0],
  ['brig.yaml', ['optSettings', 'setPasswordHashingRateLimit', 'userLimit', 'inverseRate'], 0],
  ['brig.yaml', ['optSettings', 'setLimitFailedLogins'], DELETE],
  ['brig.yaml', ['zauth', 'accessTokenTimeout'], 86_400],
];
const b = await npmStart(edits, INSPECTOR === undefined ? {} : { inspectorPort: Number(INSPECTOR) });
const baseline = await baselineServer();
try {
  console.log(pinServerToOneCore());
  const groups = new Map<number, Group>();
  console.log(
    `setup (not measured): users, clients and the conversation through the API (${SETUP_WIDTH} requests in flight), ts-mls groups, suite 1 (X25519/AES-128-GCM/Ed25519), one client per member`,
  );
  for (const n of sizes) {
    const measuredHere = SIZES.includes(n);
    try {
      groups.set(n, await makeGroup(n, measuredHere ? commitsAt(n) + 1 : 0, measuredHere ? rejoinersAt(n) : 0));
    } catch (err) {
      failed(n, 'setup', err);
      for (const l of b.lastLines(40)) console.log(`         | ${l}`);
    }
  }
  console.log(
    `\nMLS application messages: ${IN_FLIGHT} sends in flight, one ciphertext for every member, at most ${ONLINE} online; client CPU: the load client's share of one core (near 100%: the client is the limit)`,
  );
  fanOutLine(['members', 'run', 'messages/s', 'deliveries/s', 'p50 ms', 'p99 ms', 'client CPU']);
  for (const n of FAN_OUT_SIZES) {
    const g = groups.get(n);
    if (g !== undefined) await fanOut(g).catch((err) => failed(n, 'fan-out', err));
  }
  console.log(
    `\nMLS commits and removals, one at a time: server CPU = workerd's CPU time per request (${serverCpuReader() === undefined ? 'not available here: n/a' : 'all threads, /proc schedstat'}), wall = request to response`,
  );
  commitLine(['members', 'commit', 'bundle KB', 'commits', 'CPU p50 ms', 'CPU p99 ms', 'wall p50 ms', 'wall p99 ms']);
  for (const n of SIZES) {
    const g = groups.get(n);
    if (g !== undefined) await commitKinds(g);
  }
} finally {
  await baseline.dispose();
  await b.stop();
}
