import { and, asc, count, eq, gt, inArray } from 'drizzle-orm';
import { inChunks } from '../../db/chunks.js';
import { acrossPartitions, type Db, keysByPartition, partitionFor } from '../../db/client.js';
import { teamFeatures, teamInvitations, teamMembers, teams, type TeamRole } from '../../../shared/db/schema.js';

export type TeamRow = typeof teams.$inferSelect;
export type TeamMemberRow = typeof teamMembers.$inferSelect;
/** A team to create; its creator becomes the owner. */
export type NewTeam = { id: string; name: string; icon: string; iconKey?: string | undefined; creator: string };
/** A member to add, with the role they were invited to and who invited them. */
export type NewTeamMember = { team: string; user: string; role: TeamRole; invitedBy: string | null };

/**
 * Teams and their members (D1 tables teams, team_members). A team's row is in the partition of its
 * id's slot, a membership in its user's, beside the user's row (accounts made for a team share its
 * slot; one who joined as a personal user keeps theirs). What asks about all of a team's members
 * visits every partition. `db` is the caller's view of the directory.
 */
export const teamStore = {
  /** The statements creating a team with its owner, for batches that create the owner too. */
  create(db: Db, t: NewTeam) {
    const now = Date.now();
    return [
      partitionFor(db, t.id)
        .insert(teams)
        .values({
          id: t.id,
          name: t.name,
          icon: t.icon,
          iconKey: t.iconKey ?? null,
          creator: t.creator,
          createdAt: now,
        }),
      partitionFor(db, t.creator)
        .insert(teamMembers)
        .values({ team: t.id, user: t.creator, role: 'owner', invitedBy: null, invitedAt: null }),
    ] as const;
  },
  /** Statement adding a member with a role, as someone invited them. */
  addMember(db: Db, m: NewTeamMember) {
    return partitionFor(db, m.user)
      .insert(teamMembers)
      .values({ ...m, invitedAt: Date.now() });
  },
  /** Statement removing a user from every team (account deletion). */
  removeMember(db: Db, user: string) {
    return partitionFor(db, user).delete(teamMembers).where(eq(teamMembers.user, user));
  },
  /** The teams the user is a member of (at most one). */
  async ofUser(db: Db, user: string): Promise<TeamRow[]> {
    const memberships = await partitionFor(db, user)
      .select({ team: teamMembers.team })
      .from(teamMembers)
      .where(eq(teamMembers.user, user));
    const rows = await Promise.all(memberships.map((m) => teamStore.byId(db, m.team)));
    return rows.filter((t) => t !== undefined);
  },
  async byId(db: Db, id: string): Promise<TeamRow | undefined> {
    const [row] = await partitionFor(db, id).select().from(teams).where(eq(teams.id, id));
    return row;
  },
  /** Up to `limit` members of the team (user ids). */
  async memberIds(db: Db, team: string, limit: number): Promise<string[]> {
    const rows = await acrossPartitions(db, (part) =>
      part.select({ user: teamMembers.user }).from(teamMembers).where(eq(teamMembers.team, team)).limit(limit),
    );
    return rows.slice(0, limit).map((r) => r.user);
  },
  /** Which of these users are members of the team. */
  async membersAmong(db: Db, team: string, users: readonly string[]): Promise<Set<string>> {
    const rows = await teamStore.membersByIds(db, team, users);
    return new Set(rows.map((r) => r.user));
  },
  update(
    db: Db,
    id: string,
    patch: Partial<Pick<TeamRow, 'name' | 'icon' | 'iconKey' | 'splashScreen' | 'searchVisibility' | 'status'>>,
  ) {
    return partitionFor(db, id).update(teams).set(patch).where(eq(teams.id, id));
  },
  /** A page of members ordered by user id, after a position. */
  async members(db: Db, team: string, size: number, after?: string): Promise<TeamMemberRow[]> {
    const where =
      after === undefined ? eq(teamMembers.team, team) : and(eq(teamMembers.team, team), gt(teamMembers.user, after));
    const rows = await acrossPartitions(db, (part) =>
      part.select().from(teamMembers).where(where).orderBy(asc(teamMembers.user)).limit(size),
    );
    return rows.sort((a, b) => (a.user < b.user ? -1 : 1)).slice(0, size);
  },
  async member(db: Db, team: string, user: string): Promise<TeamMemberRow | undefined> {
    const [row] = await partitionFor(db, user)
      .select()
      .from(teamMembers)
      .where(and(eq(teamMembers.team, team), eq(teamMembers.user, user)));
    return row;
  },
  async membersByIds(db: Db, team: string, users: readonly string[]): Promise<TeamMemberRow[]> {
    const parts = [...keysByPartition(db, users, (u) => u)].map(([part, some]) =>
      inChunks(some, 1, (chunk) =>
        part
          .select()
          .from(teamMembers)
          .where(and(eq(teamMembers.team, team), inArray(teamMembers.user, chunk))),
      ),
    );
    return (await Promise.all(parts)).flat();
  },
  async size(db: Db, team: string): Promise<number> {
    const rows = await acrossPartitions(db, (part) =>
      part.select({ n: count() }).from(teamMembers).where(eq(teamMembers.team, team)),
    );
    return rows.reduce((sum, r) => sum + r.n, 0);
  },
  /** Members holding one of these roles (who gets team events). */
  async withRoles(db: Db, team: string, roles: readonly TeamRole[]): Promise<string[]> {
    const rows = await acrossPartitions(db, (part) =>
      part
        .select({ user: teamMembers.user })
        .from(teamMembers)
        .where(and(eq(teamMembers.team, team), inArray(teamMembers.role, [...roles]))),
    );
    return rows.map((r) => r.user);
  },
  setRole(db: Db, team: string, user: string, role: TeamRole) {
    return partitionFor(db, user)
      .update(teamMembers)
      .set({ role })
      .where(and(eq(teamMembers.team, team), eq(teamMembers.user, user)));
  },
  /** The team row, its members, feature overrides and invitations (its members' accounts are gone before). */
  remove(db: Db, team: string) {
    const here = partitionFor(db, team);
    return [
      here.delete(teamMembers).where(eq(teamMembers.team, team)),
      here.delete(teamFeatures).where(eq(teamFeatures.team, team)),
      here.delete(teamInvitations).where(eq(teamInvitations.team, team)),
      here.delete(teams).where(eq(teams.id, team)),
    ];
  },
  async roleOf(db: Db, team: string, user: string): Promise<TeamRole | undefined> {
    const [row] = await partitionFor(db, user)
      .select({ role: teamMembers.role })
      .from(teamMembers)
      .where(and(eq(teamMembers.team, team), eq(teamMembers.user, user)));
    return row?.role;
  },
};
