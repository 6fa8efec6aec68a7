import { eq } from 'drizzle-orm';
import { acrossPartitions, type Db, partitionFor, partitionsOf } from '../../db/client.js';
import { remoteConnections } from '../../../shared/db/schema.js';

/**
 * Which local users have a connection (of any status) to a user of another backend, by domain
 * (table remote_connections, in the partition of the local user's slot): the connections
 * themselves are in the users' Account objects, and when federation with a domain ends, its
 * users' connections are found here.
 */
export const remoteConnectionStore = {
  /** Records that `user` has a connection to a user of `domain`. */
  async add(db: Db, domain: string, user: string): Promise<void> {
    await partitionFor(db, user).insert(remoteConnections).values({ domain, user }).onConflictDoNothing();
  },
  usersOf(db: Db, domain: string): Promise<string[]> {
    return acrossPartitions(db, async (part) => {
      const rows = await part
        .select({ user: remoteConnections.user })
        .from(remoteConnections)
        .where(eq(remoteConnections.domain, domain));
      return rows.map((r) => r.user);
    });
  },
  async forgetDomain(db: Db, domain: string): Promise<void> {
    await Promise.all(
      partitionsOf(db).map((part) => part.delete(remoteConnections).where(eq(remoteConnections.domain, domain))),
    );
  },
};
