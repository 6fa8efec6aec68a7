import { fromBase64, toBase64 } from '../../../shared/base64.js';
import type { GroupLeaf, Leaving, RemoteMlsDelivery } from '../../../shared/mls/delivery.js';
import type { RemovalKeys } from '../../../shared/mls/removal-keys.js';
import { signRemoveProposal } from '../../../shared/mls/removal.js';
import { schemeOf } from '../../../shared/mls/suites.js';
import { type ChangeSinks, commitWithDeliveries } from '../commit-with-deliveries.js';
import type { ConversationDb, Write } from '../../db/conversation-db.js';
import { mlsGroupMessage, remoteDelivery } from './fan-out.js';
import { GroupRoster } from './group-roster.js';
import { indexOf, userKey } from './group-index.js';
import type { GroupSend } from '../../notification-shards.js';
import type { GroupRow, PendingProposal } from './group-row.js';
import { proposalStatement, removalPendingStatement } from './group-store.js';

/** The signed proposals of some leaves' removal, their writes, and their delivery. */
export interface RemovalProposals {
  statements: Write[];
  notifications: GroupSend[];
  remote: RemoteMlsDelivery[];
  proposals: PendingProposal[];
}

/**
 * The backend's Remove proposals of these leaves at `epoch` (as the group's external sender 0,
 * signed with the removal key of the group's signature scheme), stored as pending and sent to the
 * group's clients on behalf of each leaf's user: here to `roster`, on other backends through
 * theirs (`remote`, those among `to`).
 */
export async function removalProposals(
  db: ConversationDb,
  keys: RemovalKeys,
  group: GroupRow & { suite: number; groupId: string },
  at: {
    epoch: number;
    leaves: readonly GroupLeaf[];
    to: readonly GroupLeaf[];
    roster: GroupRoster;
    localDomain: string;
  },
): Promise<RemovalProposals> {
  const key = keys[schemeOf(group.suite)];
  const groupId = fromBase64(group.groupId)!;
  const out: RemovalProposals = { statements: [], notifications: [], remote: [], proposals: [] };
  const time = new Date().toISOString();
  for (const leaf of at.leaves) {
    const signed = await signRemoveProposal({
      suite: group.suite,
      signingKey: key.signKey,
      groupId,
      epoch: BigInt(at.epoch),
      leafIndex: leaf.index,
    });
    const pending: PendingProposal = {
      ref: toBase64(signed.ref),
      origin: 'backend',
      effect: { remove: leaf.index },
      message: toBase64(signed.message),
    };
    out.proposals.push(pending);
    out.statements.push(
      proposalStatement(db, group.groupId, at.epoch, pending),
      removalPendingStatement(db, group.groupId, leaf.index),
    );
    const from = { user: leaf.user, domain: leaf.domain, client: '', connection: '' }; // nobody's own message
    const fan = { conv: group.conv, subconv: group.subconv, sender: from, localDomain: at.localDomain, time };
    out.notifications.push(await at.roster.send(mlsGroupMessage(signed.message, fan), undefined));
    const proposal = { message: toBase64(signed.message), of: { user: leaf.user, domain: leaf.domain } };
    out.remote.push(...remoteDelivery('proposal', at.to, fan).map((d) => ({ ...d, proposal })));
  }
  return out;
}

/**
 * The backend's Remove proposals for the leaves of clients that left: pending, so the next commit
 * must reference them, and sent to every client of the group, in one unit with their writes. A
 * group before its first commit has nobody to tell.
 */
export async function proposeRemovals(
  db: ConversationDb,
  sinks: ChangeSinks,
  keys: RemovalKeys,
  group: GroupRow,
  left: Leaving,
): Promise<{ group: GroupRow; remote: RemoteMlsDelivery[] }> {
  if (group.epoch === 0 || group.suite === null || group.groupId === null) return { group, remote: [] };
  const index = indexOf(group, left.localDomain);
  const named = left.targets.flatMap((t) =>
    [...(index.leavesOf.get(userKey(t)) ?? [])]
      .map((i) => group.leaves.get(i)!)
      .filter((l) => !l.removalPending && (t.client === undefined || t.client === l.client)),
  );
  const goes = [...new Map(named.map((l) => [l.index, l])).values()];
  if (goes.length === 0) return { group, remote: [] };
  // Other backends' clients are told through theirs; the group's own through the rosters.
  const everyone = index.remote === 0 ? [] : [...group.leaves.values()];
  const roster = new GroupRoster(db, sinks.shards, group, left.localDomain);
  const sent = await removalProposals(
    db,
    keys,
    { ...group, suite: group.suite, groupId: group.groupId },
    {
      epoch: group.epoch,
      leaves: goes,
      to: everyone,
      roster,
      localDomain: left.localDomain,
    },
  );
  const proposals = new Map(group.proposals);
  for (const p of sent.proposals) proposals.set(p.ref, p);
  await commitWithDeliveries(sinks, [...sent.statements, ...roster.writes], sent.notifications, left.ttlSeconds);
  // The leaves stay until a commit removes them; in place, as a failure drops the group (groups.ts).
  for (const leaf of goes) group.leaves.set(leaf.index, { ...leaf, removalPending: true });
  return { group: { ...group, proposals }, remote: sent.remote };
}
