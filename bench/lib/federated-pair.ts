import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Backend } from '../../tools/lib/backend.js';
import { bundleWorker, ROOT } from '../../tools/lib/bundle.js';
import { readConfigTexts } from '../../tools/lib/config-dir.js';
import { defaultTexts } from '../../tools/lib/config-edit.js';
import { startLocalDns } from '../../tools/lib/local-dns.js';
import { startBackendWithSidecar } from '../../tools/lib/sidecar.js';

export const A = 'example.com';
export const B = 'b.example.com';

/**
 * The README's two local backends (config/ and config/b.example.com/) with their federators, a
 * local CA and one DNS server, on free ports and fresh memory-backed state; removed on dispose.
 */
export async function benchPair(): Promise<{ a: Backend; b: Backend; dispose(): Promise<void> }> {
  const root = mkdtempSync(join(process.env.TMPDIR ?? (existsSync('/dev/shm') ? '/dev/shm' : tmpdir()), 'svc-bench-'));
  const bundle = await bundleWorker(join(root, 'build'));
  const dns = await startLocalDns();
  const start = (name: string, config: ReturnType<typeof defaultTexts>) =>
    startBackendWithSidecar(
      { port: 0, internalPort: 0, config, stateDir: join(root, name), bundle, onLog: () => {} },
      { root, dns },
    );
  const a = await start('a', defaultTexts());
  const b = await start('b', readConfigTexts(join(ROOT, 'config', B)));
  for (const [domain, backend] of [
    [A, a],
    [B, b],
  ] as const)
    dns.set(`_svc-federator._tcp.${domain}`, { target: '127.0.0.1', port: backend.federator.externalPort! });
  return {
    a,
    b,
    dispose: async () => {
      await Promise.all([a.stop(), b.stop()]);
      await dns.stop();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
