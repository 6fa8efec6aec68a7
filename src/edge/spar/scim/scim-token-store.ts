import { count, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { sparScimTokens } from '../../db/schema-spar.js';

/** Teams' SCIM bearer tokens (hashed). */
export const scimTokenStore = {
  async countOfTeam(db: Db, team: string): Promise<number> {
    const [row] = await db.select({ n: count() }).from(sparScimTokens).where(eq(sparScimTokens.team, team));
    return row?.n ?? 0;
  },
};
