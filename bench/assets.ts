// Asset throughput: uploads (POST /v8/assets, multipart/mixed streamed to radosgw) and downloads
// (GET → 302 → the presigned URL on the store), in MiB/s for 1 MiB and 100 MiB assets, with the
// worker's resident memory sampled during the uploads: streaming keeps it flat whatever the size.
// The backend and its object store as `npm start` runs them; the user (a team owner: 100 MiB
// assets) made through the API.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { apiUser } from './lib/api-seed.js';
import { npmStart } from './lib/npm-start.js';
import { workerdPids } from './lib/pin.js';

const MIB = 1024 * 1024;
const RUNS: Array<{ size: number; count: number }> = [
  { size: 1 * MIB, count: Number(process.env.BENCH_SMALL_ASSETS ?? 50) },
  { size: 100 * MIB, count: Number(process.env.BENCH_LARGE_ASSETS ?? 4) },
];

function multipart(data: Uint8Array): { body: Uint8Array<ArrayBuffer>; contentType: string } {
  const b = `bench${Date.now()}`;
  const head = `--${b}\r\nContent-Type: application/json\r\nContent-Length: 15\r\n\r\n{"public":true}\r\n--${b}\r\nContent-Type: application/octet-stream\r\nContent-Length: ${data.byteLength}\r\n\r\n`;
  return {
    body: new Uint8Array(Buffer.concat([Buffer.from(head), data, Buffer.from(`\r\n--${b}--\r\n`)])),
    contentType: `multipart/mixed; boundary=${b}`,
  };
}

/** Resident memory (MiB) of these processes, read from /proc: cheap enough to sample during a run. */
function workerRss(pids: number[]): number {
  let kib = 0;
  for (const pid of pids) {
    let status = '';
    try {
      status = readFileSync(`/proc/${pid}/status`, 'utf8');
    } catch {
      continue; // gone
    }
    kib += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  }
  return kib / 1024;
}

const b = await npmStart();
try {
  const base = b.publicUrl.origin;
  const auth = { authorization: `Bearer ${(await apiUser(b, { teamOwner: true })).token}` };

  console.log('assets: one at a time, worker and radosgw on this machine');
  console.log('size      count  upload MiB/s  download MiB/s  worker RSS before → peak during uploads (MiB)');
  for (const { size, count } of RUNS) {
    const { body, contentType } = multipart(randomBytes(size));
    const pids = workerdPids();
    const before = workerRss(pids);
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, workerRss(pids))), 20);
    const keys: string[] = [];
    let t0 = performance.now();
    for (let i = 0; i < count; i++) {
      const r = await fetch(`${base}/v8/assets`, {
        method: 'POST',
        headers: { ...auth, 'content-type': contentType },
        body,
      });
      if (r.status !== 201) throw new Error(`upload: ${r.status} ${await r.text()}`);
      keys.push(((await r.json()) as { key: string }).key);
    }
    const uploadSeconds = (performance.now() - t0) / 1000;
    clearInterval(sampler);
    t0 = performance.now();
    for (const key of keys) {
      const r = await fetch(`${base}/v8/assets/example.com/${key}`, { headers: auth });
      if (r.status !== 200 || (await r.arrayBuffer()).byteLength !== size) throw new Error(`download: ${r.status}`);
    }
    const downloadSeconds = (performance.now() - t0) / 1000;
    const mib = (size * count) / MIB;
    console.log(
      `${`${size / MIB} MiB`.padEnd(9)} ${String(count).padStart(5)}  ${(mib / uploadSeconds).toFixed(1).padStart(12)}  ${(mib / downloadSeconds).toFixed(1).padStart(14)}  ${before.toFixed(0)} → ${peak.toFixed(0)}`,
    );
  }
} finally {
  await b.stop();
}
