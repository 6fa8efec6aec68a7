import { and, eq, gt, lt } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import {
  sparAssertions,
  sparAuthnRequests,
  sparSamlUsers,
  type VerdictFormat,
} from '../../../shared/db/schema-spar.js';

/** AuthnRequests waiting for their answer, assertions already taken, and who signs in through which issuer. */
export const samlStore = {
  /** Keeps a request until it expires (answered ones stay, spent, until then: their verdict's format). */
  async addRequest(db: Db, id: string, issuer: string, verdictFormat: VerdictFormat, expiresAt: number, now: number) {
    await db.batch([
      db.delete(sparAuthnRequests).where(lt(sparAuthnRequests.expiresAt, now)),
      db.insert(sparAuthnRequests).values({ id, issuer, verdictFormat, expiresAt }),
    ]);
  },
  /** Spends a request (it is answered once): its issuer and verdict format, and whether it was live. */
  async takeRequest(db: Db, id: string, now: number) {
    const [live] = await db
      .update(sparAuthnRequests)
      .set({ spent: true })
      .where(
        and(eq(sparAuthnRequests.id, id), gt(sparAuthnRequests.expiresAt, now), eq(sparAuthnRequests.spent, false)),
      )
      .returning();
    if (live !== undefined) return { ...live, live: true };
    const [known] = await db.select().from(sparAuthnRequests).where(eq(sparAuthnRequests.id, id));
    return known === undefined ? undefined : { ...known, live: false };
  },
  /** Records an assertion's id; false when it was taken before (a replay). */
  async takeAssertion(db: Db, id: string, expiresAt: number, now: number): Promise<boolean> {
    await db.delete(sparAssertions).where(lt(sparAssertions.expiresAt, now));
    const inserted = await db.insert(sparAssertions).values({ id, expiresAt }).onConflictDoNothing().returning();
    return inserted.length === 1;
  },
  async userOf(db: Db, issuer: string, nameId: string): Promise<string | undefined> {
    const [row] = await db
      .select({ user: sparSamlUsers.user })
      .from(sparSamlUsers)
      .where(and(eq(sparSamlUsers.issuer, issuer), eq(sparSamlUsers.nameId, nameId)));
    return row?.user;
  },
  bind: (db: Db, issuer: string, nameId: string, user: string) =>
    db
      .insert(sparSamlUsers)
      .values({ issuer, nameId, user })
      .onConflictDoUpdate({ target: [sparSamlUsers.issuer, sparSamlUsers.nameId], set: { user } }),
  /** Every binding of a user (they are gone). */
  unbindUser: (db: Db, user: string) => db.delete(sparSamlUsers).where(eq(sparSamlUsers.user, user)),
  unbind: (db: Db, issuer: string, nameId: string) =>
    db.delete(sparSamlUsers).where(and(eq(sparSamlUsers.issuer, issuer), eq(sparSamlUsers.nameId, nameId))),
};
