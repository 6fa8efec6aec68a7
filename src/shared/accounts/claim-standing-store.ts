import { eq } from 'drizzle-orm';
import type { DrizzleD1Database } from 'drizzle-orm/d1';
import { teamMembers, users } from '../db/schema.js';
import type { ClaimStanding } from './material.js';

/**
 * The directory's word on whether a user's key packages may be claimed: their status (`users`)
 * and their legal hold status (`team_members`), in one statement. The Account object asks it
 * when it has no word of its own (see objects/account/claimable-store.ts).
 */
export const claimStandingStore = {
  async of(db: DrizzleD1Database, user: string): Promise<ClaimStanding> {
    const [row] = await db
      .select({ status: users.status, legalhold: teamMembers.legalholdStatus })
      .from(users)
      .leftJoin(teamMembers, eq(teamMembers.user, users.id))
      .where(eq(users.id, user));
    if (row?.legalhold === 'pending' || row?.legalhold === 'enabled') return 'legalhold';
    return row?.status === 'active' ? 'claimable' : 'inactive';
  },
};
