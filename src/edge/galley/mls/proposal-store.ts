import { and, eq, inArray } from 'drizzle-orm';
import type { GroupClient, ProposalEffect } from '../../../shared/mls/delivery.js';
import type { Db } from '../../db/client.js';
import { mlsProposals } from '../../db/schema.js';

/** Pending MLS proposals (D1 table mls_proposals) as the commit route reads them. */
export const proposalStore = {
  /** The clients the given pending proposals of a group add (refs not pending are the object's to refuse). */
  async addsAmong(db: Db, groupId: string, refs: readonly string[]): Promise<GroupClient[]> {
    if (refs.length === 0) return [];
    const rows = await db
      .select({ effect: mlsProposals.effect })
      .from(mlsProposals)
      .where(and(eq(mlsProposals.groupId, groupId), inArray(mlsProposals.ref, [...refs])));
    return rows.flatMap((r) => {
      const effect = JSON.parse(r.effect) as ProposalEffect;
      return 'add' in effect ? [effect.add] : [];
    });
  },
};
