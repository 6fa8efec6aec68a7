// background-worker's jobs, as the runtime's cron trigger and queue consumer start them.
import type { Config } from '../../shared/config/index.js';
import { defederate, isDefederation } from './defederation.js';
import { pushQueued } from './pusher.js';

export { wakeAllWaiting } from './pusher.js';

/** A batch of the backend_notifications queue: clean-ups first, then the remotes woken. */
export async function runNotificationQueue(batch: MessageBatch<unknown>, env: Env, config: Config): Promise<void> {
  for (const m of batch.messages) if (isDefederation(m.body)) await defederate(env, config, m.body.defederate);
  await pushQueued(batch, env, config);
}
