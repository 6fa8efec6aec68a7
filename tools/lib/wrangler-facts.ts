// What wrangler makes of wrangler.toml and migrations/, read in a short-lived child process:
// importing wrangler costs a process about 190 MB that it never gives back, and `npm start`
// lives for hours.
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { WorkerOptions } from 'miniflare';
import { ROOT } from './bundle.js';

export interface Migration {
  /** The file name, as wrangler's tracking table records it. */
  name: string;
  statements: string[];
}

type Options = WorkerOptions & { compatibilityDate: string };

export interface WranglerFacts {
  /** Miniflare's options for the edge worker wrangler.toml describes (bindings, objects, queues, dates). */
  workerOptions: Options;
  /** The same for the Durable Objects' worker of wrangler.objects.toml. */
  objectsOptions: Options;
  /** migrations/, in order, each file split into statements the way wrangler does. */
  migrations: Migration[];
}

const SELF = fileURLToPath(import.meta.url);

async function readFacts(): Promise<WranglerFacts> {
  const wrangler = await import('wrangler');
  const options = (file: string) =>
    wrangler.unstable_getMiniflareWorkerOptions(join(ROOT, file)).workerOptions as Options;
  const workerOptions = options('wrangler.toml');
  const objectsOptions = options('wrangler.objects.toml');
  const disagreement = sharedFacts(workerOptions) !== sharedFacts(objectsOptions);
  if (disagreement)
    throw new Error('wrangler.toml and wrangler.objects.toml differ in database, shard count or compatibility date');
  const dir = join(ROOT, 'migrations');
  const migrations = readdirSync(dir)
    .filter((f) => /^\d{4}_.*\.sql$/.test(f))
    .sort()
    .map((name) => ({ name, statements: wrangler.unstable_splitSqlQuery(readFileSync(join(dir, name), 'utf8')) }));
  return { workerOptions, objectsOptions, migrations };
}

/** What both workers must agree on: where the data lives, and the runtime they run on. */
function sharedFacts(o: Options): string {
  return JSON.stringify([o.d1Databases, o.bindings?.NOTIFICATION_SHARDS, o.compatibilityDate]);
}

let cached: Promise<WranglerFacts> | undefined;

/** The facts, read once per process (in a child that exits afterwards). */
export function wranglerFacts(): Promise<WranglerFacts> {
  cached ??= new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', SELF],
      { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) => {
        if (err) reject(new Error(`reading wrangler.toml failed: ${err.message}\n${stderr}`));
        else resolve(JSON.parse(stdout) as WranglerFacts);
      },
    );
  });
  return cached;
}

if (process.argv[1] === SELF) process.stdout.write(JSON.stringify(await readFacts()));
