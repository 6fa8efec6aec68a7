import { fromBase64, toBase64 } from '../../../shared/base64.js';
import { verifyCommitSignature } from '../../../shared/mls/commit.js';
import { conversationEvent } from '../../../shared/events/conversation-event.js';
import { memberJoinData, memberLeaveData } from '../../../shared/events/member-events.js';
import type { CommitRequest, DeliveryResult, GroupLeaf } from '../../../shared/mls/delivery.js';
import type { RemovalKeys } from '../../../shared/mls/removal-keys.js';
import type { Delivery } from '../../../shared/notifications/types.js';
import { mlsGroupMessage, mlsNotifications, remoteDelivery, toUsers } from './fan-out.js';
import { GroupRoster } from './group-roster.js';
import { moveIndex } from './group-index.js';
import type { GroupSend } from '../../notification-shards.js';
import type { GroupRow } from './group-row.js';
import { commitStatements } from './group-store.js';
import { planCommit } from './commit-plan.js';
import { type RemovalProposals, removalProposals } from './removals.js';
import { type ChangeSinks, commitWithDeliveries } from '../commit-with-deliveries.js';
import type { ConversationDb } from '../../db/conversation-db.js';
import { MLS_REMOTE_EFFECT, type MlsRemoteArgs } from '../../../shared/effects/mls-remote-effect.js';
import { conversationListsEffect } from '../../../shared/effects/conversation-lists-effect.js';

const localUsers = (users: Iterable<string>, domain: string) =>
  [...users].filter((u) => u.startsWith(`${domain}/`)).map((u) => u.slice(domain.length + 1));

/**
 * Applies a commit bundle to a group whose state the caller holds (and orders commits for): checks
 * it (commit-plan.ts), writes its changes and tells everybody, as one unit (commitWithDeliveries): member-join and
 * member-leave events, the commit to the clients of the old epoch, the Welcome to the added
 * clients, an application message sent along to the clients of the new epoch. Returns the new
 * state, or the refusal (with nothing written). The group's last commit sent again is answered as
 * it was the first time (its sender never got that answer).
 */
export async function applyCommit(
  db: ConversationDb,
  sinks: ChangeSinks,
  keys: RemovalKeys | undefined,
  group: GroupRow,
  req: CommitRequest,
): Promise<{ result: DeliveryResult; group?: GroupRow }> {
  const planned = planCommit(group, req);
  const digest = await digestOf(req.commit);
  if (!planned.ok) {
    // The group's last commit again: its sender got no answer (a crash, a lost connection).
    const replay = planned.refusal === 'mlsStaleMessage' && group.lastCommit?.digest === digest;
    if (replay) return { result: JSON.parse(group.lastCommit!.result) as DeliveryResult };
    return { result: { ok: false, refusal: planned.refusal, message: planned.message } };
  }
  const { plan } = planned;
  if (!(await signedBySender(group, req)))
    return { result: { ok: false, refusal: 'mlsProtocolError', message: 'The commit is not signed by its sender' } };
  const now = Date.now();
  const time = new Date(now).toISOString();

  const from = { id: req.sender.user, domain: req.sender.domain };
  const events: Array<Record<string, unknown>> = [];
  if (plan.writes.joined.length > 0)
    events.push(
      conversationEvent(
        'conversation.member-join',
        req.conv,
        from,
        memberJoinData(plan.writes.joined.map((j) => ({ id: j.user, domain: j.domain, role: j.role }))),
        { time },
      ),
    );
  if (plan.writes.left.length > 0)
    events.push(
      conversationEvent(
        'conversation.member-leave',
        req.conv,
        from,
        memberLeaveData(
          plan.writes.left.map((l) => ({ id: l.user, domain: l.domain })),
          'removed',
        ),
        { time },
      ),
    );

  const fan = { conv: req.conv, subconv: req.subconv, sender: req.sender, localDomain: req.localDomain, time };
  // Members before and after: those who left are still members, those who joined are added.
  const told = events.length === 0 ? [] : [...group.members, ...plan.writes.joined.map((j) => `${j.domain}/${j.user}`)];
  const roster = new GroupRoster(db, sinks.shards, group, req.localDomain);
  const notifications: Array<Delivery | GroupSend> = [
    ...events.flatMap((e) => toUsers(e, localUsers(told, req.localDomain), req.conv, req.sender)),
    await roster.send(mlsGroupMessage(req.commit, fan), req.sender, { add: plan.added, remove: plan.removed }),
  ];
  const remote = remoteDelivery('commit', plan.others.before, fan);
  if (req.welcome !== undefined) {
    notifications.push(...mlsNotifications('conversation.mls-welcome', req.welcome, plan.added, fan));
    remote.push(...remoteDelivery('welcome', plan.added, fan));
  }
  if (req.application !== undefined) {
    notifications.push(await roster.send(mlsGroupMessage(req.application, fan), req.sender));
    remote.push(...remoteDelivery('application', plan.others.after, fan));
  }
  const again = await proposedAgain(db, keys, group, plan.requeue, {
    epoch: group.epoch + 1,
    to: plan.others.after,
    roster,
    localDomain: req.localDomain,
  });
  notifications.push(...again.notifications);
  remote.push(...again.remote);
  const result: DeliveryResult = { ok: true, eventsJson: JSON.stringify(events), time, remote };
  const lastCommit = { digest, result: JSON.stringify(result), context: toBase64(req.context) };
  const writes = [
    ...commitStatements(db, { ...plan.writes, now, groupInfo: req.groupInfo, lastCommit }),
    ...again.statements,
    ...roster.writes,
  ];
  const also = [
    ...(req.remoteRecord === undefined
      ? []
      : [
          {
            kind: MLS_REMOTE_EFFECT,
            args: { told: req.remoteRecord, eventsJson: result.eventsJson, time, remote } satisfies MlsRemoteArgs,
          },
        ]),
    ...conversationListsEffect(
      req.conv,
      plan.writes.joined.map((j) => ({ id: j.user, domain: j.domain })),
      plan.writes.left.map((l) => ({ id: l.user, domain: l.domain })),
    ),
  ];
  const recorded = await commitWithDeliveries(sinks, writes, notifications, req.ttlSeconds, also);

  // The group's members and leaves move on in place: a refusal or failure drops the group (groups.ts).
  for (const l of plan.writes.left) group.members.delete(`${l.domain}/${l.user}`);
  for (const j of plan.writes.joined) group.members.add(`${j.domain}/${j.user}`);
  for (const i of plan.writes.removedLeaves) group.leaves.delete(i);
  for (const l of plan.added) group.leaves.set(l.index, { ...l, removalPending: false });
  if (group.index !== undefined) moveIndex(group.index, plan.removed, plan.added, req.localDomain);
  const next: GroupRow = {
    ...group,
    epoch: group.epoch + 1,
    epochTimestamp: now,
    suite: plan.writes.suite,
    proposals: new Map(again.proposals.map((p) => [p.ref, p])),
    lastCommit,
  };
  // The effects are this request's to carry out: a replay (from lastCommit) has none.
  return { result: recorded === undefined ? result : { ...result, recorded }, group: next };
}

/** The backend's removals an external commit left pending, proposed in the new epoch (after its writes). */
async function proposedAgain(
  db: ConversationDb,
  keys: RemovalKeys | undefined,
  group: GroupRow,
  leaves: readonly GroupLeaf[],
  at: { epoch: number; to: readonly GroupLeaf[]; roster: GroupRoster; localDomain: string },
): Promise<RemovalProposals> {
  const none: RemovalProposals = { statements: [], notifications: [], remote: [], proposals: [] };
  if (leaves.length === 0 || keys === undefined || group.suite === null || group.groupId === null) return none;
  return removalProposals(db, keys, { ...group, suite: group.suite, groupId: group.groupId }, { ...at, leaves });
}

/**
 * Whether the sender's registered key signed the commit over its epoch's GroupContext, which the
 * last commit's GroupInfo gave. A group's first commit cannot be checked (no GroupInfo precedes
 * it), nor one whose last commit was taken before contexts were kept: those pass, as in wire-server.
 */
async function signedBySender(group: GroupRow, req: CommitRequest): Promise<boolean> {
  const context = group.lastCommit?.context;
  if (context === undefined || req.epoch === 0) return true;
  const key = req.signed.key === undefined ? undefined : fromBase64(req.signed.key);
  if (key === undefined) return false;
  return verifyCommitSignature(req.commit, req.signed, fromBase64(context)!, key, req.suite);
}

async function digestOf(bytes: Uint8Array): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return Array.from(hash, (b) => b.toString(16).padStart(2, '0')).join('');
}
