import { fromBase64, toBase64 } from '../../../shared/base64.js';
import type { Leaving, RemoteMlsDelivery } from '../../../shared/mls/delivery.js';
import type { RemovalKeys } from '../../../shared/mls/removal-keys.js';
import { signRemoveProposal } from '../../../shared/mls/removal.js';
import { schemeOf } from '../../../shared/mls/suites.js';
import type { Delivery } from '../../../shared/notifications/types.js';
import type { NotificationShards } from '../../notification-shards.js';
import { commitWithDeliveries } from '../commit-with-deliveries.js';
import { mlsNotifications, remoteDelivery } from './fan-out.js';
import { type GroupRow, type PendingProposal, proposalStatement, removalPendingStatement } from './group-store.js';

/**
 * The backend's Remove proposals for the leaves of clients that left (as the group's external
 * sender 0, signed with the removal key of the group's signature scheme): stored as pending, so
 * the next commit must reference them, and sent to every client of the group, on behalf of the
 * user who left (other backends' clients through theirs: `remote`), in one unit with their writes. A group before its first
 * commit has nobody to tell.
 */
export async function proposeRemovals(
  env: Pick<Env, 'DB' | 'FAULT_POINT'>,
  shards: NotificationShards,
  keys: RemovalKeys,
  group: GroupRow,
  left: Leaving,
): Promise<{ group: GroupRow; remote: RemoteMlsDelivery[] }> {
  if (group.epoch === 0 || group.suite === null || group.groupId === null) return { group, remote: [] };
  const goes = [...group.leaves.values()].filter(
    (l) =>
      !l.removalPending &&
      left.targets.some(
        (t) => t.user === l.user && t.domain === l.domain && (t.client === undefined || t.client === l.client),
      ),
  );
  if (goes.length === 0) return { group, remote: [] };
  const key = keys[schemeOf(group.suite)];
  const groupId = fromBase64(group.groupId)!;
  const proposals = new Map(group.proposals);
  const leaves = new Map(group.leaves);
  const statements: D1PreparedStatement[] = [];
  const notifications: Delivery[] = [];
  const remote: RemoteMlsDelivery[] = [];
  const time = new Date().toISOString();
  for (const leaf of goes) {
    const signed = await signRemoveProposal({
      suite: group.suite,
      signingKey: key.signKey,
      groupId,
      epoch: BigInt(group.epoch),
      leafIndex: leaf.index,
    });
    const pending: PendingProposal = {
      ref: toBase64(signed.ref),
      origin: 'backend',
      effect: { remove: leaf.index },
      message: toBase64(signed.message),
    };
    proposals.set(pending.ref, pending);
    leaves.set(leaf.index, { ...leaf, removalPending: true });
    statements.push(
      proposalStatement(env.DB, group.groupId, group.epoch, pending),
      removalPendingStatement(env.DB, group.groupId, leaf.index),
    );
    const from = { user: leaf.user, domain: leaf.domain, client: '', connection: '' }; // nobody's own message
    const everyone = [...group.leaves.values()];
    const fan = { conv: group.conv, subconv: group.subconv, sender: from, localDomain: left.localDomain, time };
    notifications.push(...mlsNotifications('conversation.mls-message-add', signed.message, everyone, fan));
    const proposal = { message: toBase64(signed.message), of: { user: leaf.user, domain: leaf.domain } };
    remote.push(...remoteDelivery('proposal', everyone, fan).map((d) => ({ ...d, proposal })));
  }
  await commitWithDeliveries(env, shards, statements, notifications, left.ttlSeconds);
  return { group: { ...group, proposals, leaves }, remote };
}
