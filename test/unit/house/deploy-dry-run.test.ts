import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const run = promisify(execFile);

/** `wrangler deploy --dry-run` of one worker's production environment: what wrangler printed. */
async function dryRun(configFile: string): Promise<string> {
  const outdir = mkdtempSync(join(tmpdir(), 'dry-run-'));
  const wrangler = join(ROOT, 'node_modules', '.bin', 'wrangler');
  const args = ['deploy', '--dry-run', '--env', 'production', '-c', configFile, '--outdir', outdir];
  const { stdout, stderr } = await run(wrangler, args, {
    cwd: ROOT,
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: 'true' },
  });
  return stdout + stderr;
}

describe('the production deploy', () => {
  // A Node-only module in a worker's imports fails wrangler's build (no nodejs_compat).
  it('bundles the Durable Objects worker with its production bindings', async () => {
    const out = await dryRun('wrangler.objects.toml');
    expect(out).toMatch(/env\.NOTIFICATIONS \(NotificationShard\)\s+Durable Object/);
    expect(out).toMatch(/env\.DB \(svc-production\)\s+D1 Database/);
    expect(out).toMatch(/env\.NATIVE_PUSH \(native_push\)\s+Queue/);
    expect(out).toMatch(/env\.METRICS \(MetricsCollector\)\s+Durable Object/);
    expect(out).toContain('--dry-run: exiting now.');
  }, 120_000);

  it('bundles the edge worker bound to the objects, queues and database of production', async () => {
    const out = await dryRun('wrangler.toml');
    for (const binding of [
      /env\.RATE_LIMITER \(RateLimiter, defined in svc-objects\)\s+Durable Object/,
      /env\.NOTIFICATIONS \(NotificationShard, defined in svc-objects\)\s+Durable Object/,
      /env\.CONVERSATIONS \(Conversation, defined in svc-objects\)\s+Durable Object/,
      /env\.METRICS \(MetricsCollector, defined in svc-objects\)\s+Durable Object/,
      /env\.BACKEND_NOTIFICATIONS \(backend_notifications\)\s+Queue/,
      /env\.CELLS_EVENTS \(cells_events\)\s+Queue/,
      /env\.DB \(svc-production\)\s+D1 Database/,
    ])
      expect(out).toMatch(binding);
    expect(out).toContain('--dry-run: exiting now.');
  }, 120_000);
});
