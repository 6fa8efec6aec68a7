import { and, asc, count, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { sparScimTokens } from '../../../shared/db/schema-spar.js';

export type ScimTokenRow = typeof sparScimTokens.$inferSelect;

/** Teams' SCIM bearer tokens, kept as hashes of the secret. */
export const scimTokenStore = {
  async countOfTeam(db: Db, team: string): Promise<number> {
    const [row] = await db.select({ n: count() }).from(sparScimTokens).where(eq(sparScimTokens.team, team));
    return row?.n ?? 0;
  },
  insert: (db: Db, row: ScimTokenRow) => db.insert(sparScimTokens).values(row),
  ofTeam(db: Db, team: string): Promise<ScimTokenRow[]> {
    return db
      .select()
      .from(sparScimTokens)
      .where(eq(sparScimTokens.team, team))
      .orderBy(asc(sparScimTokens.createdAt), asc(sparScimTokens.id));
  },
  async byHash(db: Db, hash: string): Promise<ScimTokenRow | undefined> {
    const [row] = await db.select().from(sparScimTokens).where(eq(sparScimTokens.hash, hash));
    return row;
  },
  delete: (db: Db, team: string, id: string) =>
    db.delete(sparScimTokens).where(and(eq(sparScimTokens.team, team), eq(sparScimTokens.id, id))),
  deleteOfIdp: (db: Db, idp: string) => db.delete(sparScimTokens).where(eq(sparScimTokens.idp, idp)),
  rename: (db: Db, team: string, id: string, name: string) =>
    db
      .update(sparScimTokens)
      .set({ name })
      .where(and(eq(sparScimTokens.team, team), eq(sparScimTokens.id, id))),
};
