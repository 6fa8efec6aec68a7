import type { QualifiedId } from '../../api/schemas/common.js';
import type { Db } from '../../db/client.js';
import { clientStore } from './client-store.js';

const WEEK_MS = 7 * 24 * 3600 * 1000;

/** Now, rounded up to the next multiple of a week since the epoch (a time on a multiple moves a full week). */
function lastActiveStamp(now = Date.now()): number {
  return (Math.floor(now / WEEK_MS) + 1) * WEEK_MS;
}

/** Marks a client active (fetching notifications with its id); unknown clients are ignored. */
export function touchClient(db: Db, user: QualifiedId, client: string): Promise<void> {
  return clientStore.setLastActive(db, user.id, client, lastActiveStamp());
}
