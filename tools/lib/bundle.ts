import { build } from 'esbuild';
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '..', '..');

/** Bundles the edge worker the way wrangler does (workerd conditions, ESM, cloudflare:* external). */
export async function bundleWorker(outDir: string): Promise<string> {
  const outfile = join(outDir, 'worker.js');
  mkdirSync(dirname(outfile), { recursive: true });
  await build({
    entryPoints: [join(ROOT, 'src/edge/index.ts')],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['browser', 'module', 'main'],
    external: ['cloudflare:*', 'node:*'],
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  return outfile;
}
