import { and, eq, inArray } from 'drizzle-orm';
import type { LegalholdStatus } from '../../api/schemas/legalhold-status.js';
import { inChunks } from '../../db/chunks.js';
import { acrossPartitions, type Db, keysByPartition, partitionFor } from '../../db/client.js';
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

/**
 * Legal hold's state: services per team (partition 0), members' statuses and requested devices'
 * prekeys (in the partition of the member's slot, with their membership).
 */
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
    const [row] = await partitionFor(db, user)
      .select({ s: teamMembers.legalholdStatus })
      .from(teamMembers)
      .where(and(eq(teamMembers.team, team), eq(teamMembers.user, user)));
    return row === undefined ? undefined : (row.s ?? 'no_consent');
  },
  /** The statuses of those of these users who are in a team (others have none: no consent). */
  async statuses(db: Db, users: readonly string[]): Promise<Map<string, LegalholdStatus>> {
    const parts = [...keysByPartition(db, users, (u) => u)].map(([part, some]) =>
      inChunks(some, 1, (chunk) =>
        part
          .select({ user: teamMembers.user, s: teamMembers.legalholdStatus })
          .from(teamMembers)
          .where(inArray(teamMembers.user, chunk)),
      ),
    );
    const rows = (await Promise.all(parts)).flat();
    return new Map(rows.map((r) => [r.user, r.s ?? 'no_consent']));
  },
  setStatus(db: Db, team: string, user: string, status: LegalholdStatus) {
    return partitionFor(db, user)
      .update(teamMembers)
      .set({ legalholdStatus: stored(status) })
      .where(and(eq(teamMembers.team, team), eq(teamMembers.user, user)));
  },
  /** Members of the team whose status is one of these. */
  async membersWith(db: Db, team: string, statuses: readonly StoredLegalholdStatus[]): Promise<string[]> {
    const rows = await acrossPartitions(db, (part) =>
      part
        .select({ user: teamMembers.user })
        .from(teamMembers)
        .where(and(eq(teamMembers.team, team), inArray(teamMembers.legalholdStatus, [...statuses]))),
    );
    return rows.map((r) => r.user);
  },

  async pendingPrekeys(db: Db, user: string): Promise<Prekey[]> {
    return partitionFor(db, user)
      .select({ id: legalholdPendingPrekeys.id, key: legalholdPendingPrekeys.key })
      .from(legalholdPendingPrekeys)
      .where(eq(legalholdPendingPrekeys.user, user));
  },
  /** Statements replacing a user's pending prekeys. */
  setPendingPrekeys(db: Db, user: string, prekeys: readonly Prekey[]) {
    return [
      legalholdStore.dropPendingPrekeys(db, user),
      ...prekeys.map((p) =>
        partitionFor(db, user).insert(legalholdPendingPrekeys).values({ user, id: p.id, key: p.key }),
      ),
    ];
  },
  dropPendingPrekeys(db: Db, user: string) {
    return partitionFor(db, user).delete(legalholdPendingPrekeys).where(eq(legalholdPendingPrekeys.user, user));
  },
};
