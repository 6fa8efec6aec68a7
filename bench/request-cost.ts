// The fixed cost of a request through the backend's pipeline, against a hello-world worker on the
// same runtime, measured in one run: GET /api-version (the pipeline alone) and an authenticated
// GET /v8/self (token check and one D1 read), beside a bare worker reading one D1 row (the floor
// of any request that reads the database). Targets: /api-version ≥ 0.8× and /self ≥ 0.35× the
// hello-world rate. Server pinned to one core, the load client on another; the targets are
// measured in interleaved rounds and the median of each is kept, as single runs swing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiUser } from './lib/api-seed.js';
import { npmStart } from './lib/npm-start.js';
import { helloWorldServer } from './lib/baseline.js';
import { load, type LoadResult } from './lib/load.js';
import { pinServerToOneCore } from './lib/pin.js';
import { profileWorker } from './lib/profile.js';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

// The backend as npm start runs it; the user registered, logged in and given a client through the
// API, its token the client's (`/access?client_id=`), as the web app's.
const b = await npmStart(
  [],
  process.env.BENCH_INSPECTOR === undefined ? {} : { inspectorPort: Number(process.env.BENCH_INSPECTOR) },
);
const stateDir = mkdtempSync(join(tmpdir(), 'svc-bench-hello-'));
const hello = await helloWorldServer(stateDir);
try {
  const user = await apiUser(b);
  const auth = { authorization: `Bearer ${user.token}` };
  console.log(
    `request cost: ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s per target; ${pinServerToOneCore()}`,
  );
  const targets: Array<[name: string, origin: string, path: string, headers: Record<string, string>]> = [
    ['hello-world worker', hello.url.origin, '/', {}],
    ['bare D1 read worker', hello.url.origin, '/d1-read', {}],
    ['GET /api-version', b.publicUrl.origin, '/api-version', {}],
    ['GET /v8/self', b.publicUrl.origin, '/v8/self', auth],
  ];
  const runs = new Map<string, LoadResult[]>(targets.map(([name]) => [name, []]));
  for (let round = 0; round < ROUNDS; round++)
    for (const [name, origin, path, headers] of targets)
      runs.get(name)!.push(await load(origin, path, { connections: CONNECTIONS, seconds: SECONDS, headers }));
  const median = (name: string): LoadResult => {
    const sorted = [...runs.get(name)!].sort((x, y) => x.perSecond - y.perSecond);
    return sorted[Math.floor(sorted.length / 2)]!;
  };
  const base = median('hello-world worker').perSecond;
  console.log('target                 req/s   × hello   p50 ms   p99 ms   errors   client CPU   µs/request');
  for (const [name] of targets) {
    const r = median(name);
    const errors = runs.get(name)!.reduce((n, x) => n + x.errors, 0);
    console.log(
      `${name.padEnd(20)} ${r.perSecond.toFixed(0).padStart(7)}   ${(r.perSecond / base).toFixed(2).padStart(7)}   ${r.p50.toFixed(1).padStart(6)}   ${r.p99.toFixed(1).padStart(6)}   ${String(errors).padStart(6)}   ${(r.clientCpu * 100).toFixed(0).padStart(9)}%   ${(1e6 / r.perSecond).toFixed(0).padStart(10)}`,
    );
  }
  // The server has one core: its time per request is the inverse of the rate.
  const us = (name: string) => 1e6 / median(name).perSecond;
  console.log('where the time goes (server µs per request):');
  console.log(`  runtime and HTTP (hello-world)           ${us('hello-world worker').toFixed(0).padStart(5)}`);
  console.log(
    `  the backend's pipeline (api-version − hello) ${(us('GET /api-version') - us('hello-world worker')).toFixed(0).padStart(5)}`,
  );
  console.log(
    `  one D1 round trip (bare read − hello)    ${(us('bare D1 read worker') - us('hello-world worker')).toFixed(0).padStart(5)}`,
  );
  console.log(
    `  /self beyond pipeline and D1 read        ${(us('GET /v8/self') - us('GET /api-version') - (us('bare D1 read worker') - us('hello-world worker'))).toFixed(0).padStart(5)}`,
  );
  console.log(
    `targets: /api-version ≥ 0.80× (${(median('GET /api-version').perSecond / base).toFixed(2)}), /v8/self ≥ 0.35× (${(median('GET /v8/self').perSecond / base).toFixed(2)}) the hello-world worker`,
  );
  if (process.env.BENCH_INSPECTOR) {
    for (const [name, , path, headers] of targets.slice(2)) {
      console.log(`CPU profile of ${name}:`);
      await profileWorker(Number(process.env.BENCH_INSPECTOR), () =>
        load(b.publicUrl.origin, path, { connections: CONNECTIONS, seconds: SECONDS, headers }),
      );
    }
  }
} finally {
  await hello.dispose();
  await b.stop();
  rmSync(stateDir, { recursive: true, force: true });
}
