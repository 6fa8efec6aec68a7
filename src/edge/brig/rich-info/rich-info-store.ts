import { eq } from 'drizzle-orm';
import { type Db, partitionFor } from '../../db/client.js';
import { richInfo, type RichField } from '../../../shared/db/schema.js';

/** Rich info in D1 (table rich_info), in the partition of its user's slot. */
export const richInfoStore = {
  async get(db: Db, user: string): Promise<RichField[] | undefined> {
    const [row] = await partitionFor(db, user)
      .select({ fields: richInfo.fields })
      .from(richInfo)
      .where(eq(richInfo.user, user));
    return row?.fields;
  },
  /** Replaces a user's rich info (await it, or put it in a batch). */
  setStatement(db: Db, user: string, fields: RichField[]) {
    return partitionFor(db, user)
      .insert(richInfo)
      .values({ user, fields })
      .onConflictDoUpdate({ target: richInfo.user, set: { fields } });
  },
  /** The statement removing a user's rich info, for batches. */
  deleteStatement(db: Db, user: string) {
    return partitionFor(db, user).delete(richInfo).where(eq(richInfo.user, user));
  },
};
