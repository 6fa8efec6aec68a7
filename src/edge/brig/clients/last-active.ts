import type { QualifiedId } from '../../api/schemas/common.js';
import type { Db } from '../../db/client.js';
import { clientStore } from './client-store.js';

const WEEK_MS = 7 * 24 * 3600 * 1000;

/** Now, rounded up to the next multiple of a week since the epoch (a time on a multiple moves a full week). */
function lastActiveStamp(now = Date.now()): number {
  return (Math.floor(now / WEEK_MS) + 1) * WEEK_MS;
}

/**
 * The stamp this isolate last wrote per `user/client`: the stamp moves once a week, so a client
 * fetching its notifications again writes nothing until then (issue 44: `GET /notifications` runs
 * no D1 statement when warm). Emptied when it grows past LIMIT entries.
 */
const written = new Map<string, number>();
const LIMIT = 50_000;

/** Marks a client active (fetching notifications with its id); unknown clients are ignored. */
export async function touchClient(db: Db, user: QualifiedId, client: string): Promise<void> {
  const key = `${user.id}/${client}`;
  const stamp = lastActiveStamp();
  if (written.get(key) === stamp) return;
  await clientStore.setLastActive(db, user.id, client, stamp);
  if (written.size >= LIMIT) written.clear();
  written.set(key, stamp);
}
