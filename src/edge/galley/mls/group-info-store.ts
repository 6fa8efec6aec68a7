import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { mlsGroupInfos } from '../../db/schema.js';

/** The GroupInfo of each MLS group's current epoch (D1 table mls_group_infos), as the routes read it. */
export const groupInfoStore = {
  /** The inner GroupInfo, base64, that the group's last commit brought; `undefined` before any. */
  async of(db: Db, groupId: string): Promise<string | undefined> {
    const [row] = await db
      .select({ groupInfo: mlsGroupInfos.groupInfo })
      .from(mlsGroupInfos)
      .where(eq(mlsGroupInfos.groupId, groupId));
    return row?.groupInfo;
  },
};
