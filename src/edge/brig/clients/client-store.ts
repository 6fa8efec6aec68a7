import { and, eq, inArray } from 'drizzle-orm';
import { inChunks } from '../../db/chunks.js';
import type { Db } from '../../db/client.js';
import { clients } from '../../../shared/db/schema.js';

export type ClientRow = typeof clients.$inferSelect;

/** Clients in D1 (table clients); prekeys live in prekey-store.ts. */
export const clientStore = {
  /** Sets when the client was last active (ms); an unknown client is ignored. */
  async setLastActive(db: Db, user: string, id: string, at: number): Promise<void> {
    await db
      .update(clients)
      .set({ lastActive: at })
      .where(and(eq(clients.user, user), eq(clients.id, id)));
  },
  async get(db: Db, user: string, id: string): Promise<ClientRow | undefined> {
    const [row] = await db
      .select()
      .from(clients)
      .where(and(eq(clients.user, user), eq(clients.id, id)));
    return row;
  },
  async list(db: Db, user: string): Promise<ClientRow[]> {
    return db.select().from(clients).where(eq(clients.user, user)).orderBy(clients.createdAt);
  },
  async listMany(db: Db, users: readonly string[]): Promise<ClientRow[]> {
    return inChunks(users, 1, (chunk) =>
      db.select().from(clients).where(inArray(clients.user, chunk)).orderBy(clients.createdAt),
    );
  },
  /** Statement writing a client; registering the same id again replaces its details, keeping last_active. */
  upsert(db: Db, row: ClientRow) {
    const { user: _u, id: _i, lastActive: _l, ...details } = row;
    return db
      .insert(clients)
      .values(row)
      .onConflictDoUpdate({ target: [clients.user, clients.id], set: details });
  },
  update(db: Db, user: string, id: string, patch: Partial<ClientRow>) {
    return db
      .update(clients)
      .set(patch)
      .where(and(eq(clients.user, user), eq(clients.id, id)));
  },
  deleteAllOf(db: Db, user: string) {
    return db.delete(clients).where(eq(clients.user, user));
  },
  delete(db: Db, user: string, id: string) {
    return db.delete(clients).where(and(eq(clients.user, user), eq(clients.id, id)));
  },
};
