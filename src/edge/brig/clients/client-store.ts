import { and, eq, inArray } from 'drizzle-orm';
import { inChunks } from '../../db/chunks.js';
import { type Db, keysByPartition, partitionFor } from '../../db/client.js';
import { clients } from '../../../shared/db/schema.js';

export type ClientRow = typeof clients.$inferSelect;

/**
 * Clients in D1 (table clients), in the partition of their user's slot (`db`: the caller's view of
 * the directory); their prekeys and key packages live in the user's Account object.
 */
export const clientStore = {
  /** Sets when the client was last active (ms); an unknown client is ignored. */
  async setLastActive(db: Db, user: string, id: string, at: number): Promise<void> {
    await partitionFor(db, user)
      .update(clients)
      .set({ lastActive: at })
      .where(and(eq(clients.user, user), eq(clients.id, id)));
  },
  async get(db: Db, user: string, id: string): Promise<ClientRow | undefined> {
    const [row] = await partitionFor(db, user)
      .select()
      .from(clients)
      .where(and(eq(clients.user, user), eq(clients.id, id)));
    return row;
  },
  async list(db: Db, user: string): Promise<ClientRow[]> {
    return partitionFor(db, user).select().from(clients).where(eq(clients.user, user)).orderBy(clients.createdAt);
  },
  async listMany(db: Db, users: readonly string[]): Promise<ClientRow[]> {
    const parts = [...keysByPartition(db, users, (u) => u)].map(([part, some]) =>
      inChunks(some, 1, (chunk) =>
        part.select().from(clients).where(inArray(clients.user, chunk)).orderBy(clients.createdAt),
      ),
    );
    return (await Promise.all(parts)).flat();
  },
  /** Statement writing a client; registering the same id again replaces its details, keeping last_active. */
  upsert(db: Db, row: ClientRow) {
    const { user: _u, id: _i, lastActive: _l, ...details } = row;
    return partitionFor(db, row.user)
      .insert(clients)
      .values(row)
      .onConflictDoUpdate({ target: [clients.user, clients.id], set: details });
  },
  update(db: Db, user: string, id: string, patch: Partial<ClientRow>) {
    return partitionFor(db, user)
      .update(clients)
      .set(patch)
      .where(and(eq(clients.user, user), eq(clients.id, id)));
  },
  deleteAllOf(db: Db, user: string) {
    return partitionFor(db, user).delete(clients).where(eq(clients.user, user));
  },
  delete(db: Db, user: string, id: string) {
    return partitionFor(db, user)
      .delete(clients)
      .where(and(eq(clients.user, user), eq(clients.id, id)));
  },
};
