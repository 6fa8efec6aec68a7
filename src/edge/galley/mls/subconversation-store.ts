import { and, eq } from 'drizzle-orm';
import type { QualifiedId } from '../../api/schemas/common.js';
import type { Db } from '../../db/client.js';
import { mlsGroupClients, mlsSubconversations } from '../../db/schema.js';

export type SubconversationRow = typeof mlsSubconversations.$inferSelect;

/** MLS subconversations as the routes read them (D1 tables mls_subconversations, mls_group_clients). */
export const subconversationStore = {
  async get(db: Db, conv: QualifiedId, subconv: string): Promise<SubconversationRow | undefined> {
    const [row] = await db
      .select()
      .from(mlsSubconversations)
      .where(
        and(
          eq(mlsSubconversations.convDomain, conv.domain),
          eq(mlsSubconversations.convId, conv.id),
          eq(mlsSubconversations.subconv, subconv),
        ),
      );
    return row;
  },
  /** The clients in a group, by leaf index. */
  async clients(db: Db, groupId: string) {
    return db
      .select({ domain: mlsGroupClients.userDomain, user: mlsGroupClients.user, client: mlsGroupClients.client })
      .from(mlsGroupClients)
      .where(eq(mlsGroupClients.groupId, groupId))
      .orderBy(mlsGroupClients.leafIndex);
  },
};
