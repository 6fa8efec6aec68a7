import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { dpopNonces } from '../../../shared/db/schema-oauth.js';

/** DPoP nonces: a new one replaces the client's previous one; taking one uses it up. */
export const nonceStore = {
  put: (db: Db, row: typeof dpopNonces.$inferSelect) =>
    db
      .insert(dpopNonces)
      .values(row)
      .onConflictDoUpdate({
        target: [dpopNonces.user, dpopNonces.client],
        set: { nonce: row.nonce, expiresAt: row.expiresAt },
      }),
  /** The client's live nonce, deleted by this lookup. */
  async take(db: Db, user: string, client: string): Promise<string | undefined> {
    const [row] = await db
      .delete(dpopNonces)
      .where(and(eq(dpopNonces.user, user), eq(dpopNonces.client, client)))
      .returning();
    return row !== undefined && row.expiresAt > Date.now() ? row.nonce : undefined;
  },
};
