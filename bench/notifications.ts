// Notifications appended and delivered per second to N websockets of one user.
// Each notification is caused by a real request (PUT /properties/{key}: a D1 write, then the
// user's Durable Object appends the notification and pushes it to every /await socket). The
// backend as `npm start` runs it; the user made through the API.
import WebSocket from 'ws';
import { anotherToken, apiUser } from './lib/api-seed.js';
import { percentile } from './lib/backend.js';
import { npmStart } from './lib/npm-start.js';

const SOCKETS = [1, 10, 100];
const NOTIFICATIONS = Number(process.env.BENCH_NOTIFICATIONS ?? 300);
const CONCURRENCY = 8;

async function json(url: string, init: RequestInit = {}): Promise<any> {
  const res = await fetch(url, { ...init, headers: { 'content-type': 'application/json', ...init.headers } });
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${url}: ${res.status} ${await res.text()}`);
  return res.headers.get('content-type')?.includes('json') ? res.json() : undefined;
}

async function openSockets(
  base: string,
  token: string,
  n: number,
  onFrame: (key: string) => void,
): Promise<WebSocket[]> {
  return Promise.all(
    Array.from(
      { length: n },
      () =>
        new Promise<WebSocket>((resolve, reject) => {
          const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/v8/await?access_token=${token}`);
          ws.on('message', (data: Buffer) => {
            const m = JSON.parse(data.toString('utf8'));
            const e = m.payload?.[0];
            if (e?.type === 'user.properties-set') onFrame(e.value);
          });
          ws.once('open', () => resolve(ws));
          ws.once('error', reject);
        }),
    ),
  );
}

const b = await npmStart();
try {
  const base = b.publicUrl.origin;
  // The writer's own connection is not told of its change: the sockets are another connection's.
  const user = await apiUser(b);
  const writer = user.token;
  const reader = await anotherToken(b, user);

  console.log(`notifications: ${NOTIFICATIONS} per run, ${CONCURRENCY} requests in flight, one user`);
  console.log('sockets  notifications/s  deliveries/s  p50 ms  p99 ms');
  for (const n of SOCKETS) {
    const sentAt = new Map<string, number>();
    const seen = new Map<string, number>();
    const latencies: number[] = [];
    let done: () => void = () => {};
    const finished = new Promise<void>((r) => (done = r));
    let deliveries = 0;
    const sockets = await openSockets(base, reader, n, (key) => {
      deliveries += 1;
      const count = (seen.get(key) ?? 0) + 1;
      seen.set(key, count);
      if (count === n) latencies.push(performance.now() - sentAt.get(key)!);
      if (deliveries === NOTIFICATIONS * n) done();
    });
    const start = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < NOTIFICATIONS) {
          const i = next++;
          const key = `k${n}-${i}`;
          sentAt.set(key, performance.now());
          await json(`${base}/v8/properties/p${i % 16}`, {
            method: 'PUT',
            headers: { authorization: `Bearer ${writer}` },
            body: JSON.stringify(key),
          });
        }
      }),
    );
    // Property keys repeat (16 at most), so frames are matched by their value.
    await finished;
    const seconds = (performance.now() - start) / 1000;
    latencies.sort((x, y) => x - y);
    console.log(
      `${String(n).padStart(7)}  ${(NOTIFICATIONS / seconds).toFixed(0).padStart(15)}  ${(deliveries / seconds).toFixed(0).padStart(12)}  ${percentile(latencies, 50).toFixed(1).padStart(6)}  ${percentile(latencies, 99).toFixed(1).padStart(6)}`,
    );
    for (const ws of sockets) ws.close();
  }
} finally {
  await b.stop();
}
