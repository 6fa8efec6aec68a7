import type { Config } from '../shared/config/index.js';
import { sweepExpiredAssets } from './cargohold/expiry.js';
import type { Env } from './env.js';

/** What the cron trigger runs (background-worker's periodic jobs). */
export async function runScheduledJobs(env: Env, config: Config): Promise<void> {
  const removed = await sweepExpiredAssets(env, config);
  if (removed > 0) console.log(JSON.stringify({ level: 'info', msg: 'expired assets removed', count: removed }));
}
