import type { Db } from '../../db/client.js';
import { connectionStore } from '../connections/connection-store.js';

/** The users who see this user's profile changes: their accepted connections. */
export async function contactsOf(db: Db, user: string): Promise<string[]> {
  return (await connectionStore.withStatus(db, user, ['accepted'])).map((r) => r.toUser);
}
