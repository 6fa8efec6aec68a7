import { and, eq } from 'drizzle-orm';
import { type Db, partitionFor } from '../../db/client.js';
import { sparScimUsers } from '../../../shared/db/schema-spar.js';

export type ScimUserRow = typeof sparScimUsers.$inferSelect;

/**
 * SCIM's records of the users it provisioned (externalId unique in a team), in the partition of
 * the team's slot: the accounts SCIM makes share it, so a record is written with its account.
 */
export const scimUserStore = {
  async byUser(db: Db, team: string, user: string): Promise<ScimUserRow | undefined> {
    const [row] = await partitionFor(db, team)
      .select()
      .from(sparScimUsers)
      .where(and(eq(sparScimUsers.team, team), eq(sparScimUsers.user, user)));
    return row;
  },
  async byExternalId(db: Db, team: string, externalId: string): Promise<ScimUserRow | undefined> {
    const [row] = await partitionFor(db, team)
      .select()
      .from(sparScimUsers)
      .where(and(eq(sparScimUsers.team, team), eq(sparScimUsers.externalId, externalId)));
    return row;
  },
  insert: (db: Db, row: ScimUserRow) => partitionFor(db, row.team).insert(sparScimUsers).values(row),
  update: (db: Db, team: string, user: string, patch: Partial<Pick<ScimUserRow, 'externalId' | 'updatedAt'>>) =>
    partitionFor(db, team)
      .update(sparScimUsers)
      .set(patch)
      .where(and(eq(sparScimUsers.team, team), eq(sparScimUsers.user, user))),
  delete: (db: Db, team: string, user: string) =>
    partitionFor(db, team)
      .delete(sparScimUsers)
      .where(and(eq(sparScimUsers.team, team), eq(sparScimUsers.user, user))),
};
