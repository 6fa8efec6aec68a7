import type { Db } from '../../db/client.js';

/**
 * The users who see this user's profile changes: accepted connections and team mates. Filled in
 * by the connections module; until a user has any, the list is empty.
 */
export async function contactsOf(db: Db, user: string): Promise<string[]> {
  void db;
  void user;
  return [];
}
