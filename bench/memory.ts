// The memory of a local backend as `npm start` runs it, every process of its tree by name: idle
// after start-up, with SOCKETS websockets open (users made through the API, a few sockets each),
// and each minute of MINUTES of steady traffic (one Proteus message a second to a conversation of
// all of them, every socket getting each). Targets (issue 42): idle under 600 MB, and no growth
// with time at a steady load.
import WebSocket from 'ws';
import { processTree } from '../tools/lib/process-tree.js';
import { anotherToken, apiConversation } from './lib/api-seed.js';
import { npmStart } from './lib/npm-start.js';
import { otrMessage, phase, send } from './lib/otr-load.js';

const SETTLE_MS = Number(process.env.BENCH_IDLE_SETTLE_MS ?? 5000);
const USERS = Number(process.env.BENCH_MEMORY_USERS ?? 100);
const SOCKETS = Number(process.env.BENCH_MEMORY_SOCKETS ?? 1000);
const MINUTES = Number(process.env.BENCH_MEMORY_MINUTES ?? 10);
const TARGET_MB = 600;
const DOMAIN = 'example.com';
/** Access tokens live 15 minutes: the sender takes a new one as a client would, before then. */
const REFRESH_MINUTES = 10;
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);

/** Resident memory of the tree by process name, largest first, and the total. */
function resident(pid: number): { byName: Array<[string, { count: number; rss: number }]>; total: number } {
  const tree = processTree(pid);
  const byName = new Map<string, { count: number; rss: number }>();
  for (const p of tree) {
    const entry = byName.get(p.name) ?? { count: 0, rss: 0 };
    byName.set(p.name, { count: entry.count + 1, rss: entry.rss + p.rss });
  }
  return { byName: [...byName].sort((a, b) => b[1].rss - a[1].rss), total: tree.reduce((s, p) => s + p.rss, 0) };
}

function table(title: string, pid: number, target = ''): number {
  const { byName, total } = resident(pid);
  console.log(title);
  console.log('process              count   MB');
  for (const [name, { count, rss }] of byName)
    console.log(`${name.padEnd(20)} ${String(count).padStart(5)} ${mb(rss).padStart(4)}`);
  const count = byName.reduce((s, [, e]) => s + e.count, 0);
  console.log(`total                ${String(count).padStart(5)} ${mb(total).padStart(4)}${target}`);
  return total;
}

const backend = await npmStart();
const sockets: WebSocket[] = [];
try {
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  table(
    `idle local backend (npm start, ${SETTLE_MS / 1000} s after ready): resident memory by process`,
    backend.pid,
    `   (target < ${TARGET_MB} MB)`,
  );

  const { conv, users } = await phase('users', () => apiConversation(backend, USERS, DOMAIN));
  let frames = 0;
  const ws = backend.publicUrl.origin.replace(/^http/, 'ws');
  for (let i = 0; i < SOCKETS; i++) {
    const u = users[i % users.length]!;
    const socket = new WebSocket(`${ws}/v8/await?access_token=${u.token}&client=${u.clients[0]}`, {
      perMessageDeflate: false,
    });
    socket.on('message', () => (frames += 1));
    await new Promise((r, j) => socket.once('open', r).once('error', j));
    sockets.push(socket);
  }
  table(`\nwith ${SOCKETS} sockets open (${USERS} users made through the API, one conversation of all)`, backend.pid);

  const [sender] = users as [(typeof users)[0]];
  const url = `${backend.publicUrl.origin}/v8/conversations/${DOMAIN}/${conv}/proteus/messages`;
  const headers = { authorization: `Bearer ${sender.token}`, 'content-type': 'application/x-protobuf' };
  const refresh = async () => (headers.authorization = `Bearer ${await anotherToken(backend, sender)}`);
  console.log(`\none message a second to all ${USERS} users, each frame to every socket: resident memory each minute`);
  const watched = resident(backend.pid)
    .byName.slice(0, 5)
    .map(([name]) => name);
  console.log(`minute   total MB   frames   ${watched.map((n) => n.padStart(12)).join(' ')}`);
  const totals: number[] = [];
  let sent = 0;
  const start = performance.now();
  for (let minute = 1; minute <= MINUTES; minute++) {
    if (minute % REFRESH_MINUTES === 0) await refresh();
    await phase(`minute ${minute}`, async () => {
      for (; sent < minute * 60; sent++) {
        const due = start + sent * 1000;
        await new Promise((r) => setTimeout(r, Math.max(0, due - performance.now())));
        await send(url, otrMessage(sender, users, sent, DOMAIN), headers);
      }
    });
    const now = resident(backend.pid);
    totals.push(now.total);
    const byName = new Map(now.byName);
    const columns = watched.map((n) => mb(byName.get(n)?.rss ?? 0).padStart(12)).join(' ');
    console.log(
      `${String(minute).padStart(6)}   ${mb(now.total).padStart(8)}   ${String(frames).padStart(6)}   ${columns}`,
    );
  }
  const half = Math.floor(totals.length / 2);
  if (totals.length > 1)
    console.log(
      `growth over the last ${totals.length - half} minutes: ${mb(totals.at(-1)! - totals[half - 1]!)} MB ` +
        '(target: none at a steady load)',
    );
  table(`\nafter ${MINUTES} minutes of traffic`, backend.pid);
} finally {
  for (const s of sockets) s.terminate();
  await backend.stop();
}
