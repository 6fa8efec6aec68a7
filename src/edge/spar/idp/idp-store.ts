import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { sparIdps } from '../../../shared/db/schema-spar.js';

export type IdpRow = typeof sparIdps.$inferSelect;

/** Teams' SAML identity providers, and the users each signs in. */
export const idpStore = {
  insert: (db: Db, row: IdpRow) => db.insert(sparIdps).values(row),
  async byId(db: Db, id: string): Promise<IdpRow | undefined> {
    const [row] = await db.select().from(sparIdps).where(eq(sparIdps.id, id));
    return row;
  },
  ofTeam(db: Db, team: string): Promise<IdpRow[]> {
    return db.select().from(sparIdps).where(eq(sparIdps.team, team)).orderBy(asc(sparIdps.createdAt));
  },
  /** Every IdP with this issuer (one per team at most; v1 ones are alone on the instance). */
  byIssuer(db: Db, issuer: string): Promise<IdpRow[]> {
    return db.select().from(sparIdps).where(eq(sparIdps.issuer, issuer));
  },
  update: (db: Db, id: string, set: Partial<IdpRow>) => db.update(sparIdps).set(set).where(eq(sparIdps.id, id)),
  /** The IdPs a deleted one had replaced are no longer replaced. */
  unreplace: (db: Db, team: string, issuers: readonly string[]) =>
    db
      .update(sparIdps)
      .set({ replacedBy: null })
      .where(and(eq(sparIdps.team, team), inArray(sparIdps.issuer, [...issuers]))),
  delete: (db: Db, id: string) => db.delete(sparIdps).where(eq(sparIdps.id, id)),
  async handlesOf(db: Db, team: string): Promise<Set<string>> {
    const rows = await db.select({ handle: sparIdps.handle }).from(sparIdps).where(eq(sparIdps.team, team));
    return new Set(rows.map((r) => r.handle));
  },
};
