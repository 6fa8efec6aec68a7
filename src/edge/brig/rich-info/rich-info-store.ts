import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { richInfo, type RichField } from '../../../shared/db/schema.js';

/** Rich info in D1 (table rich_info). */
export const richInfoStore = {
  async get(db: Db, user: string): Promise<RichField[] | undefined> {
    const [row] = await db.select({ fields: richInfo.fields }).from(richInfo).where(eq(richInfo.user, user));
    return row?.fields;
  },
  /** Replaces a user's rich info (await it, or put it in a batch). */
  setStatement(db: Db, user: string, fields: RichField[]) {
    return db.insert(richInfo).values({ user, fields }).onConflictDoUpdate({ target: richInfo.user, set: { fields } });
  },
  /** The statement removing a user's rich info, for batches. */
  deleteStatement(db: Db, user: string) {
    return db.delete(richInfo).where(eq(richInfo.user, user));
  },
};
