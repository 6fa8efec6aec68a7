import { and, eq, inArray } from 'drizzle-orm';
import type { LegalholdStatus } from '../../api/schemas/legalhold-status.js';
import { inChunks } from '../../db/chunks.js';
import type { Db } from '../../db/client.js';
import { teamMembers } from '../../../shared/db/schema.js';
import {
  legalholdPendingPrekeys,
  legalholdServices,
  type StoredLegalholdStatus,
} from '../../../shared/db/schema-legalhold.js';

export type LegalholdService = typeof legalholdServices.$inferSelect;
export type { LegalholdStatus };
export interface Prekey {
  id: number;
  key: string;
}

const stored = (s: LegalholdStatus): StoredLegalholdStatus | null => (s === 'no_consent' ? null : s);

/** Legal hold's state: services per team, members' statuses, requested devices' prekeys. */
export const legalholdStore = {
  async service(db: Db, team: string): Promise<LegalholdService | undefined> {
    const [row] = await db.select().from(legalholdServices).where(eq(legalholdServices.team, team));
    return row;
  },
  saveService(db: Db, row: LegalholdService) {
    const { team: _team, ...rest } = row;
    return db.insert(legalholdServices).values(row).onConflictDoUpdate({ target: legalholdServices.team, set: rest });
  },
  deleteService(db: Db, team: string) {
    return db.delete(legalholdServices).where(eq(legalholdServices.team, team));
  },

  /** A member's status; undefined when the user is not a member of the team. */
  async status(db: Db, team: string, user: string): Promise<LegalholdStatus | undefined> {
    const [row] = await db
      .select({ s: teamMembers.legalholdStatus })
      .from(teamMembers)
      .where(and(eq(teamMembers.team, team), eq(teamMembers.user, user)));
    return row === undefined ? undefined : (row.s ?? 'no_consent');
  },
  /** The statuses of those of these users who are in a team (others have none: no consent). */
  async statuses(db: Db, users: readonly string[]): Promise<Map<string, LegalholdStatus>> {
    const rows = await inChunks(users, 1, (chunk) =>
      db
        .select({ user: teamMembers.user, s: teamMembers.legalholdStatus })
        .from(teamMembers)
        .where(inArray(teamMembers.user, chunk)),
    );
    return new Map(rows.map((r) => [r.user, r.s ?? 'no_consent']));
  },
  setStatus(db: Db, team: string, user: string, status: LegalholdStatus) {
    return db
      .update(teamMembers)
      .set({ legalholdStatus: stored(status) })
      .where(and(eq(teamMembers.team, team), eq(teamMembers.user, user)));
  },
  /** Members of the team whose status is one of these. */
  async membersWith(db: Db, team: string, statuses: readonly StoredLegalholdStatus[]): Promise<string[]> {
    const rows = await db
      .select({ user: teamMembers.user })
      .from(teamMembers)
      .where(and(eq(teamMembers.team, team), inArray(teamMembers.legalholdStatus, [...statuses])));
    return rows.map((r) => r.user);
  },

  async pendingPrekeys(db: Db, user: string): Promise<Prekey[]> {
    return db
      .select({ id: legalholdPendingPrekeys.id, key: legalholdPendingPrekeys.key })
      .from(legalholdPendingPrekeys)
      .where(eq(legalholdPendingPrekeys.user, user));
  },
  /** Statements replacing a user's pending prekeys. */
  setPendingPrekeys(db: Db, user: string, prekeys: readonly Prekey[]) {
    return [
      legalholdStore.dropPendingPrekeys(db, user),
      ...prekeys.map((p) => db.insert(legalholdPendingPrekeys).values({ user, id: p.id, key: p.key })),
    ];
  },
  dropPendingPrekeys(db: Db, user: string) {
    return db.delete(legalholdPendingPrekeys).where(eq(legalholdPendingPrekeys.user, user));
  },
};
