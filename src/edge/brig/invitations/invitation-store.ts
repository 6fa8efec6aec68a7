import { and, asc, eq, gt, lt } from 'drizzle-orm';
import { acrossPartitions, type Db, partitionFor } from '../../db/client.js';
import { teamInvitations } from '../../../shared/db/schema.js';

export type InvitationRow = typeof teamInvitations.$inferSelect;

/**
 * Pending team invitations (D1 table team_invitations), in the partition of their team's slot;
 * expired ones count as gone. A code or an address names no team: those lookups visit every partition.
 */
export const invitationStore = {
  insert(db: Db, row: InvitationRow) {
    return partitionFor(db, row.team).insert(teamInvitations).values(row);
  },
  async byId(db: Db, team: string, id: string, now = Date.now()): Promise<InvitationRow | undefined> {
    const [row] = await partitionFor(db, team)
      .select()
      .from(teamInvitations)
      .where(and(eq(teamInvitations.team, team), eq(teamInvitations.id, id), gt(teamInvitations.expiresAt, now)));
    return row;
  },
  async byCode(db: Db, code: string, now = Date.now()): Promise<InvitationRow | undefined> {
    const [row] = await acrossPartitions(db, (part) =>
      part
        .select()
        .from(teamInvitations)
        .where(and(eq(teamInvitations.code, code), gt(teamInvitations.expiresAt, now))),
    );
    return row;
  },
  async byEmail(db: Db, email: string, now = Date.now()): Promise<InvitationRow[]> {
    return acrossPartitions(db, (part) =>
      part
        .select()
        .from(teamInvitations)
        .where(and(eq(teamInvitations.email, email), gt(teamInvitations.expiresAt, now))),
    );
  },
  /** A page ordered by id, after a position. */
  async page(db: Db, team: string, size: number, after?: string, now = Date.now()): Promise<InvitationRow[]> {
    const live = and(eq(teamInvitations.team, team), gt(teamInvitations.expiresAt, now));
    return partitionFor(db, team)
      .select()
      .from(teamInvitations)
      .where(after === undefined ? live : and(live, gt(teamInvitations.id, after)))
      .orderBy(asc(teamInvitations.id))
      .limit(size);
  },
  async pendingCount(db: Db, team: string, now = Date.now()): Promise<number> {
    return (
      await partitionFor(db, team)
        .select({ id: teamInvitations.id })
        .from(teamInvitations)
        .where(and(eq(teamInvitations.team, team), gt(teamInvitations.expiresAt, now)))
    ).length;
  },
  remove(db: Db, inv: Pick<InvitationRow, 'id' | 'team'>) {
    return partitionFor(db, inv.team).delete(teamInvitations).where(eq(teamInvitations.id, inv.id));
  },
  /**
   * The SCIM invitation claiming a pending account, when the account goes: made for its team, the
   * account shares its slot.
   */
  removeForInvitee(db: Db, user: string) {
    return partitionFor(db, user).delete(teamInvitations).where(eq(teamInvitations.invitee, user));
  },
  /** Expired invitations of the team, and an earlier one to the same address, make room for a new one. */
  removeStale(db: Db, team: string, email: string, now = Date.now()) {
    const here = partitionFor(db, team);
    return [
      here.delete(teamInvitations).where(and(eq(teamInvitations.team, team), lt(teamInvitations.expiresAt, now))),
      here.delete(teamInvitations).where(and(eq(teamInvitations.team, team), eq(teamInvitations.email, email))),
    ];
  },
};
