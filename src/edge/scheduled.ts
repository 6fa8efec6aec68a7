import type { Config } from '../shared/config/index.js';
import { sweepExpiredAssets } from './cargohold/face.js';
import { runNotificationQueue, wakeAllWaiting } from './background-worker/jobs.js';
import { runBotEventsQueue } from './background-worker/bot-events.js';
import { database } from './db/client.js';
import { sweepExpiredTeamNotifications } from './galley/face.js';
import { runNativePushQueue } from './gundeck/face.js';
import { log } from './log.js';

const logRemoved = (msg: string, count: number) => {
  if (count > 0) log('info', msg, { count });
};

/** What the cron trigger runs (background-worker's periodic jobs). */
export async function runScheduledJobs(env: Env, config: Config): Promise<void> {
  logRemoved('expired assets removed', await sweepExpiredAssets(env, config));
  logRemoved('expired team notifications removed', await sweepExpiredTeamNotifications(database(env.DB), config));
  if (config['background-worker'].enableFederation) await wakeAllWaiting(env);
}

/** What wrangler.toml's queue consumers run (background-worker's queue-driven tasks and bot events, gundeck's native pushes). */
export async function runQueuedWork(batch: MessageBatch<unknown>, env: Env, config: Config): Promise<void> {
  if (batch.queue === 'backend_notifications') await runNotificationQueue(batch, env, config);
  else if (batch.queue === 'native_push') await runNativePushQueue(batch, env, config);
  else if (batch.queue === 'bot_events') await runBotEventsQueue(batch, env, config);
}
