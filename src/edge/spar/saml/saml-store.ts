import { and, eq, gt, inArray, lt } from 'drizzle-orm';
import { type Db, partitionFor } from '../../db/client.js';
import {
  sparAssertions,
  sparAuthnRequests,
  sparSamlUsers,
  type VerdictFormat,
} from '../../../shared/db/schema-spar.js';

/**
 * AuthnRequests waiting for their answer, assertions already taken (partition 0), and who signs in
 * through which issuer (in the partition of the IdP's team's slot, with the accounts made for it).
 */
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
  /** Who signs in as `nameId` through `issuer`, an IdP of `team` (its users' bindings are in the team's partition). */
  async userOf(db: Db, team: string, issuer: string, nameId: string): Promise<string | undefined> {
    const [row] = await partitionFor(db, team)
      .select({ user: sparSamlUsers.user })
      .from(sparSamlUsers)
      .where(and(eq(sparSamlUsers.issuer, issuer), eq(sparSamlUsers.nameId, nameId)));
    return row?.user;
  },
  bind: (db: Db, team: string, issuer: string, nameId: string, user: string) =>
    partitionFor(db, team)
      .insert(sparSamlUsers)
      .values({ issuer, nameId, user })
      .onConflictDoUpdate({ target: [sparSamlUsers.issuer, sparSamlUsers.nameId], set: { user } }),
  /** Every binding of a user of `team` (they are gone). */
  unbindUser: (db: Db, team: string, user: string) =>
    partitionFor(db, team).delete(sparSamlUsers).where(eq(sparSamlUsers.user, user)),
  unbind: (db: Db, team: string, issuer: string, nameId: string) =>
    partitionFor(db, team)
      .delete(sparSamlUsers)
      .where(and(eq(sparSamlUsers.issuer, issuer), eq(sparSamlUsers.nameId, nameId))),
  /** The users signing in through `issuer`, an IdP of `team`. */
  async usersOf(db: Db, team: string, issuer: string): Promise<string[]> {
    const rows = await partitionFor(db, team)
      .select({ user: sparSamlUsers.user })
      .from(sparSamlUsers)
      .where(eq(sparSamlUsers.issuer, issuer));
    return rows.map((r) => r.user);
  },
  /** Forgets these users' sign-in through the issuer. */
  forgetUsers: (db: Db, team: string, issuer: string, users: readonly string[]) =>
    partitionFor(db, team)
      .delete(sparSamlUsers)
      .where(and(eq(sparSamlUsers.issuer, issuer), inArray(sparSamlUsers.user, [...users]))),
};
