import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll } from 'vitest';
import { bundleModules, ROOT } from '../../tools/lib/bundle.js';

/** A workerd runtime running test/workerd/scenarios.ts: each scenario in a fresh Durable Object with SQLite storage. */
interface Workerd {
  /** Runs a scenario and returns what it returned (its error, thrown, when it failed). */
  run<T = unknown>(suite: string, name: string): Promise<T>;
  stop(): Promise<void>;
}

async function startWorkerd(): Promise<Workerd> {
  const dir = mkdtempSync(join(tmpdir(), 'workerd-scenarios-'));
  await bundleModules({ scenarios: join(ROOT, 'test/workerd/scenarios.ts') }, dir);
  const mf = new Miniflare({
    modules: [{ type: 'ESModule', path: join(dir, 'scenarios.js') }],
    modulesRoot: dir,
    compatibilityDate: '2026-04-20', // wrangler.objects.toml's
    durableObjects: { SCENARIOS: { className: 'Scenarios', useSQLite: true } },
  });
  await mf.ready;
  return {
    async run<T>(suite: string, name: string): Promise<T> {
      const res = await mf.dispatchFetch(`http://scenarios/${suite}/${name}`);
      const answer = (await res.json()) as { value?: T; error?: string };
      if (answer.error !== undefined) throw new Error(`${suite}/${name}: ${answer.error}`);
      return answer.value as T;
    },
    async stop() {
      await mf.dispose();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A test file's scenarios of one suite: workerd starts before its tests and stops after them. */
export function workerdSuite(suite: string): <T = Record<string, unknown>>(name: string) => Promise<T> {
  let workerd: Workerd | undefined;
  beforeAll(async () => {
    workerd = await startWorkerd();
  }, 60_000);
  afterAll(() => workerd?.stop());
  return (name) => workerd!.run(suite, name);
}
