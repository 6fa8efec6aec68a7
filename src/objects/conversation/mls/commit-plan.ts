import type { CommitRequest, GroupClient, GroupLeaf, MlsRefusal } from '../../../shared/mls/delivery.js';
import { clientKey, indexOf, userKey } from './group-index.js';
import type { CommitWrites, GroupRow } from './group-row.js';

/** What a valid commit does to the group and the conversation. */
interface CommitPlan {
  writes: Omit<CommitWrites, 'now' | 'groupInfo' | 'lastCommit'>;
  /** The leaves the commit removes. */
  removed: GroupLeaf[];
  /** The clients the commit adds: they receive the Welcome. */
  added: GroupLeaf[];
  /**
   * Other backends' clients before the commit (they receive it) and after it (they receive what
   * comes with it); the group's own clients are reached through the rosters (see GroupRoster).
   */
  others: { before: GroupLeaf[]; after: GroupLeaf[] };
  /** Leaves whose removal the backend proposed and must propose again in the next epoch. */
  requeue: GroupLeaf[];
}

export type PlanResult = { ok: true; plan: CommitPlan } | { ok: false; refusal: MlsRefusal; message?: string };

const refuse = (refusal: MlsRefusal, message?: string): PlanResult => ({ ok: false, refusal, message });

/**
 * Checks a commit against the group's state, in wire-server's order, and works out its effect:
 * the epoch must be the group's, every pending proposal referenced and every reference pending; a
 * user is removed with all their clients or not at all, never by themself; an added client is new
 * to the group. The group's leaves after the commit follow from its proposals alone, as in every
 * member's tree: no part of the work grows with the GroupInfo's ratchet tree or the group, but
 * what goes to other backends' clients.
 */
export function planCommit(group: GroupRow, req: CommitRequest): PlanResult {
  if (group.protocol !== 'mls' && group.protocol !== 'mixed')
    return refuse('mlsProtocolError', 'Not an MLS conversation');
  if (group.groupId !== req.groupId)
    return refuse('mlsProtocolError', 'The message group ID does not match the conversation');
  if (!group.members.has(userKey(req.sender))) return refuse('noConversation');
  if (group.epoch > 0 && group.suite !== null && group.suite !== req.suite)
    return refuse('mlsProtocolError', 'The GroupInfo cipher suite does not match the conversation');
  if (req.epoch !== group.epoch) return refuse('mlsStaleMessage');

  const leaves = group.leaves;
  const index = indexOf(group, req.localDomain);
  if (group.epoch > 0 && req.senderLeaf !== 'external') {
    const at = leaves.get(req.senderLeaf);
    if (at === undefined) return refuse('mlsProtocolError', 'unknown sender leaf index');
    if (clientKey(at) !== clientKey(req.sender)) return refuse('mlsClientSenderUserMismatch');
  }
  if (!req.pathLeafOfSender) return refuse('mlsIdentityMismatch');
  if (req.senderLeaf === 'external' && group.epoch === 0)
    return refuse('mlsProtocolError', 'External commits at epoch 0 are not supported');

  // Proposals: each reference pending, each pending proposal referenced.
  const removes = new Set(req.removes);
  const referenced = new Set(req.references);
  const referencedAdds = new Map<string, GroupClient>();
  for (const ref of referenced) {
    const p = group.proposals.get(ref);
    if (p === undefined) return refuse('mlsProposalNotFound');
    if ('remove' in p.effect) removes.add(p.effect.remove);
    else if ('add' in p.effect) referencedAdds.set(ref, p.effect.add);
  }
  const adds = req.addOrder.flatMap((at) => {
    const add = typeof at === 'number' ? req.adds[at] : referencedAdds.get(at);
    return add === undefined ? [] : [add];
  });
  // An external commit references none (its joiner knows of none): the backend proposes its own
  // pending removals again in the next epoch, and drops the rest, as wire-server does.
  const requeue: GroupLeaf[] = [];
  for (const [ref, p] of group.proposals) {
    if (referenced.has(ref)) continue;
    const backendRemove = p.origin === 'backend' && 'remove' in p.effect ? p.effect.remove : undefined;
    if (req.senderLeaf === 'external') {
      const leaf = backendRemove === undefined ? undefined : leaves.get(backendRemove);
      if (leaf !== undefined && !removes.has(leaf.index)) requeue.push(leaf);
    } else if (backendRemove === undefined || !removes.has(backendRemove)) return refuse('mlsCommitMissingReferences');
  }

  // Removals: occupied leaves; a user loses all their clients or none, and never by their own commit.
  const removedByUser = new Map<string, Set<number>>();
  for (const index of removes) {
    const leaf = leaves.get(index);
    if (leaf === undefined) return refuse('mlsInvalidLeafNodeIndex');
    if (req.senderLeaf === 'external') {
      if (clientKey(leaf) !== clientKey(req.sender))
        return refuse('mlsProtocolError', 'An external commit may only remove the sender’s own old leaf');
      continue; // the client rejoins in place of its old leaf, as in wire: nobody leaves
    }
    if (leaf.removalPending) continue; // a deleted client (or a leaving user's), proposed by the backend
    const set = removedByUser.get(userKey(leaf)) ?? new Set<number>();
    set.add(index);
    removedByUser.set(userKey(leaf), set);
  }
  const left: Array<{ user: string; domain: string }> = [];
  for (const [user, removed] of removedByUser) {
    // A subconversation's clients come and go freely; so do a mixed conversation's, whose members
    // Proteus still decides (wire-server checks removals only once a conversation is MLS).
    if (group.subconv !== undefined || group.protocol === 'mixed') continue;
    if (req.senderLeaf !== 'external' && user === userKey(req.sender)) return refuse('mlsSelfRemovalNotAllowed');
    if (!req.mayRemoveOthers)
      return refuse('actionDenied', 'Insufficient authorization (missing remove_conversation_member)');
    const inGroup = [...(index.leavesOf.get(user) ?? [])].filter((i) => !leaves.get(i)!.removalPending);
    if (inGroup.length !== removed.size) return refuse('mlsClientMismatch');
    const sep = user.indexOf('/');
    left.push({ domain: user.slice(0, sep), user: user.slice(sep + 1) });
  }

  // Additions: clients new to the group (the committer itself at epoch 0, or when joining externally).
  const adding = new Set<string>();
  const present = (key: string) => {
    const at = index.leafOf.get(key);
    return (at !== undefined && !removes.has(at)) || adding.has(key);
  };
  if (group.subconv !== undefined && adds.some((a) => clientKey(a) !== clientKey(req.sender)))
    return refuse('mlsProtocolError', 'Add proposals in subconversations are not supported');
  for (const c of [...(group.epoch === 0 || req.senderLeaf === 'external' ? [req.sender] : []), ...adds]) {
    if (present(clientKey(c))) return refuse('mlsProtocolError', 'Client is already a member of the group');
    adding.add(clientKey(c));
  }

  // The new epoch's leaves: the removed ones blank, then an external commit's joiner and each
  // added client at the leftmost free leaf, in order (RFC 9420 §12.4.2, §12.4.3.2). A group's
  // first commit comes from its creator, alone at its leaf.
  const added: GroupLeaf[] = [];
  const taken = new Set<number>();
  let cursor = 0;
  const place = (c: GroupClient, at?: number) => {
    if (at === undefined) {
      while ((leaves.has(cursor) && !removes.has(cursor)) || taken.has(cursor)) cursor++;
      at = cursor;
    }
    taken.add(at);
    added.push({ index: at, user: c.user, domain: c.domain, client: c.client });
    return at;
  };
  if (group.epoch === 0 && req.senderLeaf !== 'external') place(req.sender, req.senderLeaf);
  if (req.senderLeaf === 'external' && place(req.sender) !== req.joinerLeaf)
    return refuse('mlsProtocolError', 'The external commit claims another leaf than the group gives its joiner');
  for (const c of adds) place(c);
  const otherBackends = (ls: Iterable<GroupLeaf>) => [...ls].filter((l) => l.domain !== req.localDomain);
  const othersBefore = index.remote === 0 ? [] : otherBackends(leaves.values());
  const othersAfter = [
    ...othersBefore
      .filter((l) => !removes.has(l.index))
      .map(({ index, user, domain, client }) => ({ index, user, domain, client })),
    ...otherBackends(added),
  ];
  const joined = [...new Map((group.subconv === undefined ? adds : []).map((a) => [userKey(a), a])).values()]
    .filter((a) => !group.members.has(userKey(a)))
    .map((a) => ({ user: a.user, domain: a.domain, role: 'wire_member' }));

  return {
    ok: true,
    plan: {
      writes: {
        conv: req.conv,
        subconv: group.subconv,
        groupId: req.groupId,
        epoch: req.epoch,
        suite: group.suite ?? req.suite,
        removedLeaves: [...removes],
        addedLeaves: added,
        joined,
        left,
      },
      removed: [...removes].map((i) => leaves.get(i)!),
      added,
      others: { before: othersBefore, after: othersAfter },
      requeue,
    },
  };
}
