// background-worker's jobs, as the runtime's cron trigger and queue consumer start them.
import type { Deps } from '../api/deps.js';
import { defederate, isDefederation } from './defederation.js';
import { pushQueued } from './pusher.js';

export { wakeAllWaiting } from './pusher.js';

/** A batch of the backend_notifications queue: clean-ups first, then the remotes woken. */
export async function runNotificationQueue(batch: MessageBatch<unknown>, d: Deps): Promise<void> {
  for (const m of batch.messages) if (isDefederation(m.body)) await defederate(d, m.body.defederate);
  await pushQueued(batch, d.env, d.config);
}
