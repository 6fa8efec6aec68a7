import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { domainChallenges, domainRegistrations } from '../../../shared/db/schema-domains.js';

export type RegistrationRow = typeof domainRegistrations.$inferSelect;
export type ChallengeRow = typeof domainChallenges.$inferSelect;

/** Domain registrations and their DNS challenges. */
export const registrationStore = {
  async get(db: Db, domain: string): Promise<RegistrationRow | undefined> {
    const [row] = await db.select().from(domainRegistrations).where(eq(domainRegistrations.domain, domain));
    return row;
  },
  ofTeam: (db: Db, team: string): Promise<RegistrationRow[]> =>
    db.select().from(domainRegistrations).where(eq(domainRegistrations.authorizedTeam, team)),
  put: (db: Db, row: RegistrationRow) =>
    db.insert(domainRegistrations).values(row).onConflictDoUpdate({ target: domainRegistrations.domain, set: row }),
  delete: (db: Db, domain: string) => db.delete(domainRegistrations).where(eq(domainRegistrations.domain, domain)),

  addChallenge: (db: Db, row: ChallengeRow) => db.insert(domainChallenges).values(row),
  async challenge(db: Db, id: string): Promise<ChallengeRow | undefined> {
    const [row] = await db.select().from(domainChallenges).where(eq(domainChallenges.id, id));
    return row !== undefined && row.expiresAt > Date.now() ? row : undefined;
  },
  deleteChallenge: (db: Db, id: string) => db.delete(domainChallenges).where(eq(domainChallenges.id, id)),
};
