import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { clients } from '../../db/schema.js';

const WEEK_MS = 7 * 24 * 3600 * 1000;

/** Now, rounded up to the next multiple of a week since the epoch (a time on a multiple moves a full week). */
export function lastActiveStamp(now = Date.now()): number {
  return (Math.floor(now / WEEK_MS) + 1) * WEEK_MS;
}

/** Marks a client active (fetching notifications with its id); unknown clients are ignored. */
export async function touchClient(db: Db, user: string, client: string): Promise<void> {
  await db
    .update(clients)
    .set({ lastActive: lastActiveStamp() })
    .where(and(eq(clients.user, user), eq(clients.id, client)));
}
