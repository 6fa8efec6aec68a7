import type { Deps } from './api/deps.js';
import { sweepExpiredAssets } from './cargohold/face.js';
import { moveLegacyMaterial } from './brig/face.js';
import { runNotificationQueue, wakeAllWaiting } from './background-worker/jobs.js';
import { runBotEventsQueue } from './bots/bot-events.js';
import { sweepExpiredTeamNotifications, wakeHeldConversations } from './galley/face.js';
import { runNativePushQueue } from './gundeck/face.js';
import { log } from '../shared/log.js';
import { sweepPendingEffects } from './effects/commit-change.js';
import { RESTART_CRON } from '../shared/restart.js';

const logCount = (msg: string, count: number) => {
  if (count > 0) log('info', msg, { count });
};

/** A change's request that ran longer than this is over (Workers end requests well before). */
const REQUEST_LIFETIME_MS = 60_000;

/** Users whose D1 account material one cron run moves into their Account objects (a deployment's migration). */
const MOVES_PER_RUN = 2_000;

/**
 * What the cron trigger runs (background-worker's periodic jobs, the effects crashed requests left
 * pending). A local backend's start runs only the latter, for everything pending (RESTART_CRON).
 */
export async function runScheduledJobs(d: Deps, cron: string): Promise<void> {
  const { env, config } = d;
  if (cron === RESTART_CRON) {
    logCount('conversations woken to hand over held effects', await wakeHeldConversations(env, Date.now()));
    logCount('pending effects carried out after a restart', await sweepPendingEffects(env, config, Date.now()));
    logCount(
      "users' account material (keys, cookies, connections, properties) moved from D1",
      await moveLegacyMaterial(d, Number.POSITIVE_INFINITY),
    );
    return;
  }
  const before = Date.now() - REQUEST_LIFETIME_MS;
  logCount('conversations woken to hand over held effects', await wakeHeldConversations(env, before));
  logCount('pending effects carried out', await sweepPendingEffects(env, config, before));
  logCount('expired assets removed', await sweepExpiredAssets(env, config));
  logCount('expired team notifications removed', await sweepExpiredTeamNotifications(d.db, config));
  logCount(
    "users' account material (keys, cookies, connections, properties) moved from D1",
    await moveLegacyMaterial(d, MOVES_PER_RUN),
  );
  if (config['background-worker'].enableFederation) await wakeAllWaiting(env);
}

/** What wrangler.toml's queue consumers run (background-worker's queue-driven tasks and bot events, gundeck's native pushes). */
export async function runQueuedWork(batch: MessageBatch<unknown>, d: Deps): Promise<void> {
  if (batch.queue === 'backend_notifications') await runNotificationQueue(batch, d);
  else if (/^native_push(_\d+)?$/.test(batch.queue)) await runNativePushQueue(batch, d.env, d.config);
  else if (batch.queue === 'bot_events') await runBotEventsQueue(batch, d);
}
