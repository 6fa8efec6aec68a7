// A real S3-compatible server on loopback, for tests and local runs: Ceph RADOS Gateway (radosgw,
// Debian's 16.2.x) over a one-monitor, one-OSD cluster. RGW verifies SigV4 signatures (headers and
// presigned query strings), which is the point of using it rather than a mock.
//
// A throwaway store's OSD keeps everything in memory (memstore): fastest to make, gone when it
// stops. A durable one (`durable`, what `npm start` runs) keeps its objects in a BlueStore file
// under the state dir and starts again on what it held: Debian's radosgw (Pacific) has no
// standalone store (dbstore and posix came later), so the cluster itself is what persists.
//
// Install the daemons once with `bash tools/object-store/install.sh` (Debian, root).
//
// Everything (config, monitor store, OSD metadata, admin sockets, logs) lives below `stateDir`;
// nothing reads or writes /etc/ceph, /var/lib/ceph, /var/log/ceph or /run/ceph. The daemons run
// in the foreground as children of this process: `stop()` kills them, and so does this process
// exiting (an 'exit' hook, plus a parent-death signal set through setpriv(1) when available, which
// also covers this process being killed).

import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { findBinary, withDeathSignal } from './death-signal.js';
import { freePort, portFree } from './ports.js';
import { listensOn } from './process-tree.js';

export interface ObjectStore {
  /** e.g. `http://127.0.0.1:41234`; use path-style addressing (`forcePathStyle: true`). */
  endpoint: string;
  /** The same gateway over TLS (`https://127.0.0.1:7443`), when it was started with `tls`. */
  tlsEndpoint?: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Any region signs fine; this one makes the SDK omit CreateBucket's LocationConstraint. */
  region: string;
  stop(): Promise<void>;
}

export interface ObjectStoreOptions {
  /**
   * Where the cluster lives. A throwaway store wipes any previous one there; a durable store
   * reuses the one it made there before (its objects and credentials), or makes one.
   */
  stateDir: string;
  /** Objects on disk, kept across restarts on the same `stateDir`; otherwise in memory. */
  durable?: boolean;
  /** The S3 port on 127.0.0.1; 0 or undefined picks a free one. */
  port?: number;
  /** When `port` is taken (by another local backend), pick a free one instead of failing. */
  anyPortIfTaken?: boolean;
  /** Receives every line the daemons log (prefixed with the daemon's name). */
  onLog?: (line: string) => void;
  /**
   * The gateway also serves TLS, on `port` (a free one when it is taken or not given), with this
   * certificate and key (PEM files): what a browser page served over https can download from.
   */
  tls?: StoreTls;
}

interface StoreTls {
  certPath: string;
  keyPath: string;
  port?: number;
}

const HOST = '127.0.0.1';
const BINARIES = ['ceph-mon', 'ceph-osd', 'radosgw', 'radosgw-admin', 'ceph', 'monmaptool'] as const;
/** Startup budget (each step has its own timeout as well). */
const START_TIMEOUT_MS = 90_000;
const REGION = 'us-east-1';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Children of every store in this process, killed when the process exits. */
const live = new Set<ChildProcess>();
let exitHookInstalled = false;
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const c of live) {
      try {
        c.kill('SIGKILL');
      } catch {
        // already gone
      }
    }
  });
}

/** radosgw's beast frontend: plain HTTP, and TLS beside it when asked. */
function frontends(s3Port: number, tls: (StoreTls & { port: number }) | undefined): string {
  const plain = `beast endpoint=${HOST}:${s3Port}`;
  if (tls === undefined) return plain;
  return `${plain} ssl_endpoint=${HOST}:${tls.port} ssl_certificate=${tls.certPath} ssl_private_key=${tls.keyPath}`;
}

/** How each kind of store keeps its objects. */
function osdStore(durable: boolean): string {
  if (!durable) return `osd objectstore = memstore\nmemstore device bytes = ${4 * 1024 ** 3}`;
  // A sparse file, with a small fixed cache instead of BlueStore's default 4 GiB memory target.
  return `osd objectstore = bluestore
bluestore block size = ${16 * 1024 ** 3}
bluestore cache autotune = false
bluestore cache size = ${64 * 1024 ** 2}`;
}

function cephConf(o: { dir: string; fsid: string; monPort: number; frontends: string; durable: boolean }): string {
  const d = o.dir;
  // Comments here are documentation: ceph ignores lines starting with '#'.
  return `[global]
fsid = ${o.fsid}
mon host = [v2:${HOST}:${o.monPort}]
mon initial members = a
public addr = ${HOST}
cluster addr = ${HOST}
public network = ${HOST}/32
# messenger v2 only: one port per daemon, nothing on 0.0.0.0
ms bind msgr1 = false
ms bind msgr2 = true
# a port taken meanwhile fails in 2 s (then startObjectStore retries with another), not 10
ms bind retry count = 2
ms bind retry delay = 1
# no cephx: a throwaway loopback-only cluster (S3 clients still authenticate: SigV4 is RGW's own)
auth cluster required = none
auth service required = none
auth client required = none
# radosgw defaults this to "secure", which needs cephx; without it every mon connection is refused (-13)
ms mon client mode = crc
# keep every path under the state dir
run dir = ${d}/run
admin socket = ${d}/run/$name.asok
pid file =
log file = ${d}/log/$name.log
crash dir = ${d}/crash
keyring = ${d}/keyring
mon data = ${d}/mon
osd data = ${d}/osd
osd journal = ${d}/osd/journal
mgr data = ${d}/mgr
mon debug dump location = ${d}/log/$name.tdump
rgw data = ${d}/rgw
rgw luarocks location = ${d}/rgw/luarocks
mon cluster log to file = false
mon cluster log file = ${d}/log/cluster.log
# a tiny single-OSD cluster
${osdStore(o.durable)}
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 4
osd pool default pgp num = 4
osd pool default pg autoscale mode = off
osd crush chooseleaf type = 0
mon allow pool delete = true
mon allow pool size one = true
mon warn on insecure global id reclaim allowed = false
auth allow insecure global id reclaim = false
mon warn on pool no redundancy = false
mon max pg per osd = 1000
# faster map updates (each pool creation is a paxos round: about 2 s each with the defaults)
paxos propose interval = 0.05
paxos min wait = 0.01
mon tick interval = 1
osd mon report interval = 1
# small and quiet
osd op num shards = 2
osd op num threads per shard = 2
debug ms = 0
debug mon = 0
debug paxos = 0
debug osd = 0
debug rgw = 1
debug auth = 0
debug monc = 0
debug objecter = 0
debug rados = 0
debug rocksdb = 0
debug memstore = 0
debug filestore = 0

[client]
# ceph / radosgw-admin: no admin socket, no log file
admin socket =
log file =

[client.rgw]
admin socket = ${d}/run/$name.asok
log file = ${d}/log/$name.log
rgw frontends = ${o.frontends}
rgw thread pool size = 64
# a gateway waiting for the OSD asks for a newer map this often (default 5 s)
objecter tick interval = 0.25
rgw enable usage log = false
rgw enable ops log = false
# reclaim deleted data (memory!) after a minute rather than two hours
rgw gc obj min wait = 60
rgw gc processor period = 60
rgw gc processor max time = 60
`;
}

function track(child: ChildProcess, mine: Set<ChildProcess>): ChildProcess {
  live.add(child);
  mine.add(child);
  child.on('exit', () => {
    live.delete(child);
    mine.delete(child);
  });
  return child;
}

/** One ceph daemon in the foreground (`-d`: logs to stderr). */
function daemon(
  bin: string,
  args: string[],
  name: string,
  log: (l: string) => void,
  mine: Set<ChildProcess>,
): ChildProcess {
  const child = track(spawn(...withDeathSignal(bin, args), { stdio: ['ignore', 'pipe', 'pipe'] }), mine);
  for (const s of [child.stdout, child.stderr]) {
    if (s) createInterface({ input: s }).on('line', (l) => l && log(`${name}: ${l}`));
  }
  return child;
}

/** A one-shot command (ceph, radosgw-admin, ...); its output, or an error with its stderr. */
function run(bin: string, args: string[], timeoutMs: number, mine: Set<ChildProcess>): Promise<string> {
  return new Promise((res, rej) => {
    const [cmd, argv] = withDeathSignal(bin, args);
    const opts = { timeout: timeoutMs, killSignal: 'SIGKILL' as const, maxBuffer: 16 * 1024 * 1024 };
    track(
      execFile(cmd, argv, opts, (err, stdout, stderr) => {
        if (err) rej(new Error(`${bin} ${args.join(' ')} failed: ${err.message}\n${stderr}`.trim()));
        else res(stdout);
      }),
      mine,
    );
  });
}

/** A cluster plus gateway; see the file comment. */
export async function startObjectStore(o: ObjectStoreOptions): Promise<ObjectStore> {
  const bins = Object.fromEntries(BINARIES.map((b) => [b, findBinary(b)])) as Record<
    (typeof BINARIES)[number],
    string | undefined
  >;
  const missing = BINARIES.filter((b) => !bins[b]);
  if (missing.length) {
    throw new Error(
      `object store: missing ${missing.join(', ')} (Ceph RADOS Gateway); run \`bash tools/object-store/install.sh\` as root`,
    );
  }
  const bin = bins as Record<(typeof BINARIES)[number], string>;
  let opts = o;
  if (o.port && !(await portFree(o.port))) {
    if (!o.anyPortIfTaken) throw new Error(`object store: ${HOST}:${o.port} is already in use`);
    opts = { ...o, port: 0 };
  }
  // A port may be taken by someone else before the daemon binds it: try again.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(opts, bin);
    } catch (e) {
      if (!(e instanceof PortTaken) || attempt >= 3) throw e;
      if (opts.anyPortIfTaken) opts = { ...opts, port: 0 };
    }
  }
}

class PortTaken extends Error {}

const tlsPort = async (wanted: number | undefined) =>
  wanted !== undefined && (await portFree(wanted)) ? wanted : freePort();

const BIND_FAILURE = /address already in use|unable to bind|failed to bind/i;

/** What a durable store needs to start again on its cluster; written once the cluster is complete. */
interface KeptCluster {
  fsid: string;
  osdId: string;
  accessKeyId: string;
  secretAccessKey: string;
}

const KEPT = 'cluster.json';

function keptCluster(dir: string): KeptCluster | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, KEPT), 'utf8')) as KeptCluster;
  } catch {
    return undefined;
  }
}

async function startOnce(o: ObjectStoreOptions, bin: Record<(typeof BINARIES)[number], string>): Promise<ObjectStore> {
  installExitHook();
  const dir = resolve(o.stateDir);
  const kept = o.durable ? keptCluster(dir) : undefined;
  // Anything but a complete durable cluster (a throwaway one, a start cut short) goes.
  const stale = kept === undefined ? ['mon', 'osd', 'rgw', 'log', 'crash', KEPT] : [];
  for (const sub of [...stale, 'run', 'ceph.conf', 'monmap', 'keyring']) {
    rmSync(join(dir, sub), { recursive: true, force: true });
  }
  for (const sub of ['mon', 'osd', 'rgw', 'run', 'log', 'crash']) mkdirSync(join(dir, sub), { recursive: true });
  writeFileSync(join(dir, 'keyring'), '');

  const tail: string[] = [];
  // Seen anywhere in the log, not only in its tail: a crash dump can push it out.
  let bindFailed = false;
  const log = (l: string) => {
    bindFailed ||= BIND_FAILURE.test(l);
    tail.push(l);
    if (tail.length > 40) tail.shift();
    o.onLog?.(l);
  };
  const fsid = kept?.fsid ?? randomUUID();
  const monPort = await freePort();
  const s3Port = o.port ? o.port : await freePort();
  const tls = o.tls === undefined ? undefined : { ...o.tls, port: await tlsPort(o.tls.port) };
  const conf = join(dir, 'ceph.conf');
  writeFileSync(conf, cephConf({ dir, fsid, monPort, frontends: frontends(s3Port, tls), durable: o.durable === true }));
  const c = ['-c', conf];
  // Daemons, and commands under way: stop() kills them all.
  const children = new Set<ChildProcess>();
  let stopped = false;
  let failure: Error | undefined;
  let fail!: (e: Error) => void;
  // Rejects as soon as a daemon dies: steps that wait on the cluster race it to fail fast.
  const failed = new Promise<never>((_, rej) => (fail = rej));
  failed.catch(() => {});

  const stop = async () => {
    stopped = true;
    // SIGKILL: a throwaway store's data is worth nothing, and a clean memstore shutdown would first
    // write all of it to disk; BlueStore and the monitor's RocksDB are made to survive a crash.
    await Promise.all(
      [...children].map(
        (ch) =>
          new Promise<void>((res) => {
            if (ch.exitCode !== null || ch.signalCode !== null) return res();
            ch.once('exit', () => res());
            ch.kill('SIGKILL');
          }),
      ),
    );
  };
  const watch = (ch: ChildProcess, name: string) => {
    ch.on('exit', (code, signal) => {
      if (stopped) return;
      const why = `${name} exited (${signal ?? code}) before the object store was stopped`;
      log(`object-store: ${why}`);
      const text = tail.join('\n');
      // A port was taken meanwhile (98 = EADDRINUSE; radosgw sometimes crashes instead of exiting
      // when it gives up a taken port): worth another try.
      const raced = code === 98 || bindFailed || (name === 'radosgw' && signal !== null);
      const err = `${why}; last log lines:\n${text}`;
      const fixedPort = name === 'radosgw' && o.port && !o.anyPortIfTaken;
      failure ??= raced && !fixedPort ? new PortTaken(err) : new Error(err);
      fail(failure);
    });
    ch.on('error', (e) => {
      failure ??= new Error(`${name}: ${e.message}`);
      fail(failure);
    });
  };
  const check = () => {
    if (failure) throw failure;
  };

  const deadline = Date.now() + START_TIMEOUT_MS;
  /** Runs a command, or fails as soon as a daemon dies. */
  const cmd = (b: string, args: string[], timeoutMs = Math.max(1000, deadline - Date.now())) =>
    Promise.race([run(b, [...c, ...args], timeoutMs, children), failed]);
  try {
    // Monitor: a kept one is told its new port (the map names the monitor's address).
    const monmap = join(dir, 'monmap');
    const addr = `[v2:${HOST}:${monPort}]`;
    await run(bin.monmaptool, ['--create', '--fsid', fsid, '--addv', 'a', addr, monmap], 10_000, children);
    const monInit = kept === undefined ? ['--mkfs', '--monmap'] : ['--inject-monmap'];
    await cmd(bin['ceph-mon'], ['-i', 'a', ...monInit, monmap], 30_000);
    watch(daemon(bin['ceph-mon'], [...c, '-i', 'a', '-d'], 'mon.a', log, children), 'ceph-mon');

    // OSD: a new one is registered (waits for the monitor to answer) and gets its store; then it starts.
    let id = kept?.osdId;
    if (id === undefined) {
      const osdUuid = randomUUID();
      id = (await cmd(bin.ceph, ['--connect-timeout', '30', 'osd', 'new', osdUuid])).trim();
      await cmd(bin['ceph-osd'], ['-i', id, '--mkfs', '--osd-uuid', osdUuid], 30_000);
    } else {
      // The map still has the OSD up where it was before the restart: the gateway would wait on it.
      await cmd(bin.ceph, ['--connect-timeout', '30', 'osd', 'down', id]);
    }
    watch(daemon(bin['ceph-osd'], [...c, '-i', id, '-d'], `osd.${id}`, log, children), 'ceph-osd');

    // Gateway: it creates its pools itself (the bucket ones with the first bucket / multipart
    // upload, a fraction of a second each with the quick paxos settings above).
    const rgw = daemon(bin.radosgw, [...c, '-n', 'client.rgw', '-d'], 'rgw', log, children);
    watch(rgw, 'radosgw');
    const endpoint = `http://${HOST}:${s3Port}`;
    for (;;) {
      check();
      if (Date.now() > deadline) throw new Error(`radosgw did not answer on ${endpoint} in time`);
      // Only our gateway's answer counts: another local store may hold the port (this one then exits).
      if (!listensOn(rgw.pid!, s3Port)) {
        await sleep(50);
        continue;
      }
      try {
        const r = await fetch(endpoint, { signal: AbortSignal.timeout(2000) });
        await r.arrayBuffer();
        if (/amz|xml/i.test(r.headers.get('content-type') ?? '') || r.headers.has('x-amz-request-id')) break;
      } catch {
        // not yet
      }
      await sleep(150);
    }

    let keys: Pick<KeptCluster, 'accessKeyId' | 'secretAccessKey'> | undefined = kept;
    if (keys === undefined) {
      // Hex keys: nothing that radosgw-admin's argument parser could take for an option.
      keys = {
        accessKeyId: randomBytes(10).toString('hex').toUpperCase(),
        secretAccessKey: randomBytes(20).toString('hex'),
      };
      const user = ['user', 'create', '--uid', 'test', '--display-name', 'test'];
      await cmd(bin['radosgw-admin'], [...user, '--access-key', keys.accessKeyId, '--secret', keys.secretAccessKey]);
      if (o.durable) writeFileSync(join(dir, KEPT), JSON.stringify({ fsid, osdId: id, ...keys } satisfies KeptCluster));
    }
    const { accessKeyId, secretAccessKey } = keys;
    const tlsEndpoint = tls === undefined ? {} : { tlsEndpoint: `https://${HOST}:${tls.port}` };
    return { endpoint, ...tlsEndpoint, accessKeyId, secretAccessKey, region: REGION, stop };
  } catch (e) {
    await stop();
    if (kept === undefined || e instanceof PortTaken) throw e;
    throw new Error(
      `object store: the one kept in ${dir} did not start again (remove that folder to start afresh, without its objects): ${(e as Error).message}`,
    );
  }
}
