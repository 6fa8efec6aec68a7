import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { clients } from '../../db/schema.js';

export type ClientRow = typeof clients.$inferSelect;

/** Clients in D1 (table clients); prekeys live in prekey-store.ts. */
export const clientStore = {
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
};
