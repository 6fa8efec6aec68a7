import { and, asc, eq, gt, lt } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { teamInvitations } from '../../../shared/db/schema.js';

export type InvitationRow = typeof teamInvitations.$inferSelect;

/** Pending team invitations (D1 table team_invitations); expired ones count as gone. */
export const invitationStore = {
  insert(db: Db, row: InvitationRow) {
    return db.insert(teamInvitations).values(row);
  },
  async byId(db: Db, team: string, id: string, now = Date.now()): Promise<InvitationRow | undefined> {
    const [row] = await db
      .select()
      .from(teamInvitations)
      .where(and(eq(teamInvitations.team, team), eq(teamInvitations.id, id), gt(teamInvitations.expiresAt, now)));
    return row;
  },
  async byCode(db: Db, code: string, now = Date.now()): Promise<InvitationRow | undefined> {
    const [row] = await db
      .select()
      .from(teamInvitations)
      .where(and(eq(teamInvitations.code, code), gt(teamInvitations.expiresAt, now)));
    return row;
  },
  async byEmail(db: Db, email: string, now = Date.now()): Promise<InvitationRow[]> {
    return db
      .select()
      .from(teamInvitations)
      .where(and(eq(teamInvitations.email, email), gt(teamInvitations.expiresAt, now)));
  },
  /** A page ordered by id, after a position. */
  async page(db: Db, team: string, size: number, after?: string, now = Date.now()): Promise<InvitationRow[]> {
    const live = and(eq(teamInvitations.team, team), gt(teamInvitations.expiresAt, now));
    return db
      .select()
      .from(teamInvitations)
      .where(after === undefined ? live : and(live, gt(teamInvitations.id, after)))
      .orderBy(asc(teamInvitations.id))
      .limit(size);
  },
  async pendingCount(db: Db, team: string, now = Date.now()): Promise<number> {
    return (
      await db
        .select({ id: teamInvitations.id })
        .from(teamInvitations)
        .where(and(eq(teamInvitations.team, team), gt(teamInvitations.expiresAt, now)))
    ).length;
  },
  remove(db: Db, id: string) {
    return db.delete(teamInvitations).where(eq(teamInvitations.id, id));
  },
  /** The SCIM invitation claiming a pending account, when the account goes. */
  removeForInvitee(db: Db, user: string) {
    return db.delete(teamInvitations).where(eq(teamInvitations.invitee, user));
  },
  /** Expired invitations of the team, and an earlier one to the same address, make room for a new one. */
  removeStale(db: Db, team: string, email: string, now = Date.now()) {
    return [
      db.delete(teamInvitations).where(and(eq(teamInvitations.team, team), lt(teamInvitations.expiresAt, now))),
      db.delete(teamInvitations).where(and(eq(teamInvitations.team, team), eq(teamInvitations.email, email))),
    ];
  },
};
