import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { userConsents } from '../../../shared/db/schema.js';

export interface Consent {
  type: number;
  value: number;
  source: string;
}

/** Each user's latest answer per consent type (D1 table user_consents). */
export const consentStore = {
  async all(db: Db, user: string): Promise<Consent[]> {
    return db
      .select({ type: userConsents.type, value: userConsents.value, source: userConsents.source })
      .from(userConsents)
      .where(eq(userConsents.user, user))
      .orderBy(userConsents.type);
  },
  /** Replaces the user's answer of this type. */
  async set(db: Db, user: string, consent: Consent): Promise<void> {
    await db
      .insert(userConsents)
      .values({ user, ...consent })
      .onConflictDoUpdate({
        target: [userConsents.user, userConsents.type],
        set: { value: consent.value, source: consent.source },
      });
  },
  /** For the account deletion's batch. */
  deleteAllOf(db: Db, user: string) {
    return db.delete(userConsents).where(eq(userConsents.user, user));
  },
};
