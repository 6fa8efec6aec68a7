import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { sparScimUsers } from '../../../shared/db/schema-spar.js';

export type ScimUserRow = typeof sparScimUsers.$inferSelect;

/** SCIM's records of the users it provisioned (externalId unique in a team). */
export const scimUserStore = {
  async byUser(db: Db, user: string): Promise<ScimUserRow | undefined> {
    const [row] = await db.select().from(sparScimUsers).where(eq(sparScimUsers.user, user));
    return row;
  },
  async byExternalId(db: Db, team: string, externalId: string): Promise<ScimUserRow | undefined> {
    const [row] = await db
      .select()
      .from(sparScimUsers)
      .where(and(eq(sparScimUsers.team, team), eq(sparScimUsers.externalId, externalId)));
    return row;
  },
  insert: (db: Db, row: ScimUserRow) => db.insert(sparScimUsers).values(row),
  update: (db: Db, user: string, patch: Partial<Pick<ScimUserRow, 'externalId' | 'updatedAt'>>) =>
    db.update(sparScimUsers).set(patch).where(eq(sparScimUsers.user, user)),
  delete: (db: Db, user: string) => db.delete(sparScimUsers).where(eq(sparScimUsers.user, user)),
};
