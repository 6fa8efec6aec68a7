import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { remoteConnections } from '../../../shared/db/schema.js';

/**
 * Which local users have a connection (of any status) to a user of another backend, by domain
 * (table remote_connections): the connections themselves are in the users' Account objects, and
 * when federation with a domain ends, its users' connections are found here.
 */
export const remoteConnectionStore = {
  /** Statement recording that `user` has a connection to a user of `domain`. */
  add(db: Db, domain: string, user: string) {
    return db.insert(remoteConnections).values({ domain, user }).onConflictDoNothing();
  },
  async usersOf(db: Db, domain: string): Promise<string[]> {
    const rows = await db
      .select({ user: remoteConnections.user })
      .from(remoteConnections)
      .where(eq(remoteConnections.domain, domain));
    return rows.map((r) => r.user);
  },
  forgetDomain(db: Db, domain: string) {
    return db.delete(remoteConnections).where(eq(remoteConnections.domain, domain));
  },
};
