import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Two files at a time even on two cores: a file mostly waits for its backend (workerd, another
    // process), so one at a time left a core idle (vitest took 1,022 s for the suite, 619 s with two).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts', 'test/conformance/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/integration/global-setup.ts'],
          // Files share their worker's modules: each file importing the clients' libraries afresh
          // (api-client, core-crypto's WASM, ts-mls) cost 194 s of a 1,422 s run. The helpers'
          // module state is load-once caches and counters, which files may share.
          isolate: false,
          setupFiles: ['test/integration/setup-fetch.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
