import { readFile } from 'node:fs/promises';
import { build, stop, type Plugin } from 'esbuild';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '..', '..');

const XML_BUILDER_CJS = '@aws-sdk/xml-builder/dist-cjs/index.js';

/** Files the worker imports as strings; wrangler.toml's `[[rules]]` of type Text names the same for `wrangler deploy`. */
const TEXT_MODULES = /\/swagger-ui-dist\/swagger-ui(-bundle\.js|\.css)$/;

const textModules: Plugin = {
  name: 'text-modules',
  setup(b) {
    b.onLoad({ filter: TEXT_MODULES }, async (args) => ({
      contents: await readFile(args.path, 'utf8'),
      loader: 'text',
    }));
  },
};

/** The two scripts of the backend: the edge worker and the Durable Objects' worker. */
export interface WorkerBundle {
  edge: string;
  objects: string;
}

/**
 * Bundles both workers the way wrangler does (workerd conditions, ESM, cloudflare:* external),
 * each self-contained: the objects' script carries none of the edge's code.
 */
export async function bundleWorker(outDir: string): Promise<WorkerBundle> {
  await bundleModules({ worker: join(ROOT, 'src/edge/index.ts'), objects: join(ROOT, 'src/objects/index.ts') }, outDir);
  return { edge: join(outDir, 'worker.js'), objects: join(outDir, 'objects.js') };
}

/** Bundles worker modules (name → entry file) into `outDir` as `<name>.js`, as wrangler would. */
export async function bundleModules(entryPoints: Record<string, string>, outDir: string): Promise<void> {
  mkdirSync(outDir, { recursive: true });
  await build({
    entryPoints,
    outdir: outDir,
    bundle: true,
    format: 'esm',
    platform: 'browser', // as wrangler: packages' `browser` file maps apply (the AWS SDK's fetch-based runtime)
    target: 'es2022',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['browser', 'module', 'main'],
    external: ['cloudflare:*', 'node:*'],
    // The SDK's browser build of its XML parser needs DOMParser, which workerd lacks (as in wrangler.toml).
    alias: { '@aws-sdk/xml-builder': XML_BUILDER_CJS },
    plugins: [textModules],
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  await stop(); // esbuild's service process holds ~160 MB while it lives; the next build starts another
}
