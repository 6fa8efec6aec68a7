import type { Config } from '../../../shared/config/index.js';
import type { NativePushJob, PushAddress } from '../../../shared/notifications/native-push.js';
import { userStream } from '../../events/publish.js';
import { count, flushCounts } from '../../metrics/counts.js';
import { release } from './addresses.js';
import { pushGatewayOf } from './configured-gateway.js';
import { noticeFor } from './notice.js';
import { log } from '../../../shared/log.js';

/** A device that takes no more pushes: its address goes, and its client hears of it. */
async function dropGone(env: Env, config: Config, user: string, a: PushAddress): Promise<void> {
  const gone = await userStream(env, user).dropPushToken(a.token, config.gundeck.settings.notificationTTL);
  await release(env, config, user, gone);
}

async function push(env: Env, config: Config, job: NativePushJob): Promise<void> {
  const gateway = pushGatewayOf(env, config);
  if (gateway === undefined) return; // native push was turned off after these were queued
  for (const a of job.to) {
    const outcome = await gateway.publish(a, noticeFor(a.transport, job));
    count(outcome === 'sent' ? 'push_native_success' : 'push_native_disabled');
    if (outcome === 'gone') await dropGone(env, config, job.user, a);
  }
}

/**
 * The native_push queue: the notifications that reached some devices of their users by no
 * websocket (see NativePushes in the notification objects). A message whose pushes failed in a way
 * that may pass is retried, as the queue's configuration allows.
 */
export async function runNativePushQueue(batch: MessageBatch<unknown>, env: Env, config: Config): Promise<void> {
  for (const m of batch.messages) {
    try {
      for (const job of m.body as NativePushJob[]) await push(env, config, job);
      m.ack();
    } catch (err) {
      log('warn', 'native push failed', { err: String(err) });
      count('push_native_errors');
      m.retry({ delaySeconds: 5 });
    }
  }
  await flushCounts(env);
}
