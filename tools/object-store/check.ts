// Smoke test of the local object store (tools/lib/object-store.ts) with the AWS SDK:
//   npx tsx tools/object-store/check.ts          # the basics
//   npx tsx tools/object-store/check.ts --big    # also a 100 MiB object and concurrent multipart uploads
// Needs the daemons: `bash tools/object-store/install.sh` (Debian, root).
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  UploadPartCommand,
  type CompletedPart,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { startObjectStore } from '../lib/object-store.js';

const big = process.argv.includes('--big');
const verbose = process.argv.includes('--verbose');
const MiB = 1024 * 1024;
const t0 = performance.now();
const secs = (from = t0) => ((performance.now() - from) / 1000).toFixed(2);
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const fill = (n: number, seed: number) => {
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = (i * 31 + seed) & 0xff;
  return b;
};
function assert(cond: unknown, msg: string): asserts cond {
  if (!cond) throw new Error(`check failed: ${msg}`);
}

/** Peak and current RSS of the daemons running on this state dir (Linux /proc). */
function daemonMemory(stateDir: string): string[] {
  const out: string[] = [];
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (!cmd.includes(join(stateDir, 'ceph.conf'))) continue;
      const exe = cmd.find((a) => /(ceph-mon|ceph-osd|radosgw)$/.test(a));
      if (!exe) continue;
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      const mib = (k: string) =>
        (Number(new RegExp(`^${k}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) / 1024).toFixed(0);
      out.push(`${exe.split('/').pop()}: rss ${mib('VmRSS')} MiB, peak ${mib('VmHWM')} MiB`);
    } catch {
      // gone
    }
  }
  return out;
}

async function multipart(s3: S3Client, Bucket: string, Key: string, body: Uint8Array, partSize: number) {
  const { UploadId } = await s3.send(new CreateMultipartUploadCommand({ Bucket, Key }));
  assert(UploadId, 'no UploadId');
  try {
    const parts: CompletedPart[] = [];
    for (let n = 1, off = 0; off < body.length; n++, off += partSize) {
      const r = await s3.send(
        new UploadPartCommand({ Bucket, Key, UploadId, PartNumber: n, Body: body.subarray(off, off + partSize) }),
      );
      parts.push({ PartNumber: n, ETag: r.ETag });
    }
    await s3.send(new CompleteMultipartUploadCommand({ Bucket, Key, UploadId, MultipartUpload: { Parts: parts } }));
    return parts.length;
  } catch (e) {
    await s3.send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId })).catch(() => {});
    throw e;
  }
}

async function getBytes(s3: S3Client, Bucket: string, Key: string): Promise<Uint8Array> {
  const r = await s3.send(new GetObjectCommand({ Bucket, Key }));
  assert(r.Body, 'no body');
  return r.Body.transformToByteArray();
}

const stateDir = mkdtempSync(join(tmpdir(), 'object-store-check-'));
const store = await startObjectStore({
  stateDir,
  onLog: verbose ? (l) => console.log(`  | ${l}`) : undefined,
}).catch((e: unknown) => {
  rmSync(stateDir, { recursive: true, force: true });
  throw e;
});
const startup = secs();
console.log(`started   ${store.endpoint} in ${startup} s (state ${stateDir})`);
let ok = false;
try {
  const s3 = new S3Client({
    endpoint: store.endpoint,
    region: store.region,
    forcePathStyle: true,
    credentials: { accessKeyId: store.accessKeyId, secretAccessKey: store.secretAccessKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const Bucket = 'check-bucket';
  let t = performance.now();
  await s3.send(new CreateBucketCommand({ Bucket }));
  console.log(`bucket    created in ${secs(t)} s`);

  t = performance.now();
  const small = new TextEncoder().encode('hello, object store\n');
  await s3.send(new PutObjectCommand({ Bucket, Key: 'dir/hello.txt', Body: small, ContentType: 'text/plain' }));
  const back = await getBytes(s3, Bucket, 'dir/hello.txt');
  assert(Buffer.from(back).equals(Buffer.from(small)), 'small object round trip');
  console.log(`put/get   small object in ${secs(t)} s`);

  t = performance.now();
  const mp = fill(12 * MiB + 12345, 7);
  const nParts = await multipart(s3, Bucket, 'multi.bin', mp, 5 * MiB);
  const head = await s3.send(new HeadObjectCommand({ Bucket, Key: 'multi.bin' }));
  assert(head.ContentLength === mp.length, `multipart length ${head.ContentLength}`);
  assert(sha(await getBytes(s3, Bucket, 'multi.bin')) === sha(mp), 'multipart content');
  console.log(
    `multipart ${(mp.length / MiB).toFixed(1)} MiB in ${nParts} parts, read back, in ${secs(t)} s (ETag ${head.ETag})`,
  );

  t = performance.now();
  const url = await getSignedUrl(s3, new GetObjectCommand({ Bucket, Key: 'dir/hello.txt' }), { expiresIn: 300 });
  const good = await fetch(url);
  const goodBody = await good.text();
  assert(good.status === 200 && goodBody === 'hello, object store\n', `presigned GET: ${good.status} ${goodBody}`);
  const u = new URL(url);
  const sig = u.searchParams.get('X-Amz-Signature');
  assert(sig, 'no X-Amz-Signature in presigned URL');
  u.searchParams.set('X-Amz-Signature', sig.slice(0, -1) + (sig.endsWith('0') ? '1' : '0'));
  const bad = await fetch(u);
  const badBody = await bad.text();
  assert(
    bad.status === 403 && /SignatureDoesNotMatch/.test(badBody),
    `tampered presigned GET: ${bad.status} ${badBody}`,
  );
  console.log(`presigned GET 200, tampered signature ${bad.status} SignatureDoesNotMatch (${secs(t)} s)`);

  // Header-signed requests with a wrong secret, and anonymous requests, are refused too.
  const wrong = new S3Client({
    endpoint: store.endpoint,
    region: store.region,
    forcePathStyle: true,
    credentials: { accessKeyId: store.accessKeyId, secretAccessKey: `${store.secretAccessKey}x` },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const refused = await wrong.send(new ListObjectsV2Command({ Bucket })).then(
    () => 'accepted',
    (e: unknown) => (e instanceof S3ServiceException ? `${e.$metadata.httpStatusCode} ${e.name}` : String(e)),
  );
  assert(refused === '403 SignatureDoesNotMatch', `wrong secret: ${refused}`);
  const anon = await fetch(`${store.endpoint}/${Bucket}/dir/hello.txt`);
  await anon.arrayBuffer();
  assert(anon.status === 403, `anonymous GET: ${anon.status}`);
  console.log(`refused   wrong secret (${refused}), anonymous GET (${anon.status})`);

  if (big) {
    t = performance.now();
    const huge = fill(100 * MiB, 3);
    await s3.send(new PutObjectCommand({ Bucket, Key: 'huge.bin', Body: huge }));
    assert(sha(await getBytes(s3, Bucket, 'huge.bin')) === sha(huge), '100 MiB content');
    console.log(`big       100 MiB put + get in ${secs(t)} s`);

    t = performance.now();
    const bodies = [0, 1, 2, 3].map((i) => fill(11 * MiB, 100 + i));
    await Promise.all(bodies.map((b, i) => multipart(s3, Bucket, `mp-${i}.bin`, b, 5 * MiB)));
    for (const [i, b] of bodies.entries()) {
      assert(sha(await getBytes(s3, Bucket, `mp-${i}.bin`)) === sha(b), `concurrent multipart ${i}`);
    }
    console.log(`big       4 concurrent 11 MiB multipart uploads in ${secs(t)} s`);

    const list = await s3.send(new ListObjectsV2Command({ Bucket }));
    const keys = (list.Contents ?? []).map((c) => c.Key ?? '');
    assert(keys.includes('huge.bin') && keys.length === 7, `listing: ${keys.join(' ')}`);
  }

  t = performance.now();
  await s3.send(new DeleteObjectCommand({ Bucket, Key: 'dir/hello.txt' }));
  const del = await s3.send(
    new DeleteObjectsCommand({ Bucket, Delete: { Objects: [{ Key: 'multi.bin' }, { Key: 'nope' }] } }),
  );
  assert(!del.Errors?.length, `DeleteObjects errors: ${JSON.stringify(del.Errors)}`);
  console.log(`delete    DeleteObject + DeleteObjects in ${secs(t)} s`);

  for (const l of daemonMemory(stateDir)) console.log(`memory    ${l}`);
  ok = true;
} finally {
  const t = performance.now();
  await store.stop();
  console.log(`stopped   in ${secs(t)} s`);
  if (ok) rmSync(stateDir, { recursive: true, force: true });
  else console.log(`state and logs kept in ${stateDir}`);
}
console.log(`ok        startup ${startup} s, total ${secs()} s`);
