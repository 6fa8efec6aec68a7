import { describe, expect, it } from 'vitest';
import type { CommitRequest, GroupClient, GroupLeaf, ProposalEffect } from '../../../../../src/shared/mls/delivery.js';
import type {
  GroupRow as Group,
  PendingProposal as Proposal,
} from '../../../../../src/objects/conversation/mls/group-row.js';
import { planCommit } from '../../../../../src/objects/conversation/mls/commit-plan.js';

const D = 'a.example';
const client = (user: string, c: string): GroupClient => ({ user, domain: D, client: c });
const leaf = (index: number, user: string, c: string): GroupLeaf => ({ index, ...client(user, c) });

/** Alice (a1, a2), Bob (b1, b2) and Carol (c1) at leaves 0–4, in epoch 3; Dave is not a member. */
const TREE = [leaf(0, 'alice', 'a1'), leaf(1, 'alice', 'a2'), leaf(2, 'bob', 'b1'), leaf(3, 'bob', 'b2')];
const TREE_WITH_CAROL = [...TREE, leaf(4, 'carol', 'c1')];

/** The group, with the backend's removal pending for the leaves `removalPending`. */
function group(over: Partial<Group> = {}, removalPending: number[] = []): Group {
  return {
    conv: { id: 'conv', domain: D },
    protocol: 'mls',
    type: 0,
    team: null,
    groupId: 'Z3JvdXA=',
    epoch: 3,
    epochTimestamp: 1_700_000_000_000,
    suite: 1,
    members: new Set(['alice', 'bob', 'carol'].map((u) => `${D}/${u}`)),
    leaves: new Map(TREE_WITH_CAROL.map((l) => [l.index, { ...l, removalPending: removalPending.includes(l.index) }])),
    proposals: new Map(),
    rosterKept: false,
    ...over,
  };
}

function commit(over: Partial<CommitRequest> = {}): CommitRequest {
  return {
    addOrder: [...(over.references ?? []), ...(over.adds ?? []).map((_, i) => i)],
    conv: { id: 'conv', domain: D },
    groupId: 'Z3JvdXA=',
    localDomain: D,
    sender: { ...client('alice', 'a1'), connection: 'conn' },
    epoch: 3,
    senderLeaf: 0,
    references: [],
    removes: [],
    adds: [],
    pathLeafOfSender: true,
    mayRemoveOthers: true,
    suite: 1,
    commit: new Uint8Array(),
    signed: { until: 0, signature: new Uint8Array(), key: undefined },
    context: new Uint8Array(),
    groupInfo: new Uint8Array(),
    ttlSeconds: 60,
    ...over,
  };
}

function planned(g: Group, r: CommitRequest) {
  const result = planCommit(g, r);
  if (!result.ok) throw new Error(`refused: ${result.refusal} ${result.message ?? ''}`);
  return result.plan;
}

/** A pending proposal, as an entry of Group.proposals. */
const pending = (ref: string, origin: Proposal['origin'], effect: ProposalEffect): [string, Proposal] => [
  ref,
  { ref, origin, effect, message: '' },
];
const backendRemoval = (ref: string, index: number) => pending(ref, 'backend', { remove: index });

describe('planCommit: the checks before the proposals, in order', () => {
  it('refuses a conversation that is not MLS, and another group’s commit', () => {
    expect(planCommit(group({ protocol: 'proteus' }), commit())).toMatchObject({ refusal: 'mlsProtocolError' });
    expect(planCommit(group(), commit({ groupId: 'b3RoZXI=' }))).toMatchObject({
      refusal: 'mlsProtocolError',
      message: 'The message group ID does not match the conversation',
    });
  });

  it('refuses a sender who is not a member before looking at the epoch', () => {
    const dave = { ...client('dave', 'd1'), connection: 'conn' };
    expect(planCommit(group(), commit({ sender: dave, epoch: 2 }))).toMatchObject({ refusal: 'noConversation' });
  });

  it('refuses a cipher suite other than the group’s, and a stale epoch either way', () => {
    expect(planCommit(group(), commit({ suite: 2 }))).toMatchObject({ refusal: 'mlsProtocolError' });
    expect(planCommit(group(), commit({ epoch: 2 }))).toMatchObject({ refusal: 'mlsStaleMessage' });
    expect(planCommit(group(), commit({ epoch: 4 }))).toMatchObject({ refusal: 'mlsStaleMessage' });
    // The epoch is checked before the sender's key.
    expect(planCommit(group(), commit({ epoch: 4, pathLeafOfSender: false }))).toMatchObject({
      refusal: 'mlsStaleMessage',
    });
  });

  it('refuses a sender leaf that is empty or another client’s, before the key', () => {
    expect(planCommit(group(), commit({ senderLeaf: 9 }))).toMatchObject({
      refusal: 'mlsProtocolError',
      message: 'unknown sender leaf index',
    });
    expect(planCommit(group(), commit({ senderLeaf: 1, pathLeafOfSender: false }))).toMatchObject({
      refusal: 'mlsClientSenderUserMismatch',
    });
    expect(planCommit(group(), commit({ pathLeafOfSender: false }))).toMatchObject({
      refusal: 'mlsIdentityMismatch',
    });
  });

  it('refuses an external commit to a group at epoch 0', () => {
    const empty = group({ epoch: 0, suite: null, leaves: new Map() });
    expect(planCommit(empty, commit({ epoch: 0, senderLeaf: 'external', joinerLeaf: 0 }))).toEqual({
      ok: false,
      refusal: 'mlsProtocolError',
      message: 'External commits at epoch 0 are not supported',
    });
  });
});

describe('planCommit: a commit that changes no membership', () => {
  it('goes to every client of the old epoch and writes the epoch it was made in', () => {
    const plan = planned(group(), commit());
    expect(plan.removed).toEqual([]);
    expect(plan.others).toEqual({ before: [], after: [] }); // its clients are reached through the rosters
    expect(plan.added).toEqual([]);
    expect(plan.requeue).toEqual([]);
    expect(plan.writes).toMatchObject({
      groupId: 'Z3JvdXA=',
      epoch: 3,
      suite: 1,
      removedLeaves: [],
      joined: [],
      left: [],
    });
  });
});

describe('planCommit: proposals', () => {
  it('refuses a reference to a proposal that is not pending', () => {
    expect(planCommit(group(), commit({ references: ['bm9uZQ=='] }))).toMatchObject({ refusal: 'mlsProposalNotFound' });
  });

  it('refuses a commit that leaves a pending proposal out', () => {
    const proposals = new Map([pending('cA==', 'client', { other: 'update' })]);
    expect(planCommit(group({ proposals }), commit())).toMatchObject({ refusal: 'mlsCommitMissingReferences' });
  });

  it('takes a backend removal committed inline instead of by reference, as no member leaving', () => {
    const g = group({ proposals: new Map([backendRemoval('cg==', 4)]) }, [4]);
    expect(planCommit(g, commit())).toMatchObject({ refusal: 'mlsCommitMissingReferences' });
    const plan = planned(g, commit({ removes: [4] }));
    expect(plan.writes.removedLeaves).toEqual([4]);
    expect(plan.writes.left).toEqual([]);
  });

  it('applies what the referenced proposals do', () => {
    const proposals = new Map([backendRemoval('cjI=', 2), pending('YWRk', 'client', { add: client('dave', 'd1') })]);
    const plan = planned(group({ proposals }), commit({ references: ['cjI=', 'YWRk'], removes: [3] }));
    expect([...plan.writes.removedLeaves].sort((a, b) => a - b)).toEqual([2, 3]);
    expect(plan.writes.left).toEqual([{ domain: D, user: 'bob' }]);
    expect(plan.added).toEqual([leaf(2, 'dave', 'd1')]);
  });
});

describe('planCommit: removals', () => {
  it('removes a user with all of their clients, who then leaves the conversation', () => {
    const plan = planned(group(), commit({ removes: [2, 3] }));
    expect(plan.writes.left).toEqual([{ domain: D, user: 'bob' }]);
    expect(plan.removed).toEqual(
      TREE_WITH_CAROL.filter((l) => l.index === 2 || l.index === 3).map((l) => ({ ...l, removalPending: false })),
    );
  });

  it('names the clients of other backends before and after the commit, for their backends', () => {
    const remote = { index: 5, user: 'rita', domain: 'remote.example', client: 'r1' };
    const dave = { user: 'dave', domain: 'remote.example', client: 'd1' };
    const g = group({
      members: new Set([...group().members, 'remote.example/rita', 'remote.example/dave']),
      leaves: new Map([...TREE_WITH_CAROL, remote].map((l) => [l.index, { ...l, removalPending: false }])),
    });
    const plan = planned(g, commit({ removes: [2, 3], adds: [dave] }));
    expect(plan.others.before).toEqual([{ ...remote, removalPending: false }]);
    expect(plan.others.after).toEqual([remote, { index: 2, ...dave }]);
  });

  it('refuses removing some of a user’s clients, an empty leaf, or the sender’s own', () => {
    expect(planCommit(group(), commit({ removes: [2] }))).toMatchObject({
      refusal: 'mlsClientMismatch',
    });
    expect(planCommit(group(), commit({ removes: [7] }))).toMatchObject({ refusal: 'mlsInvalidLeafNodeIndex' });
    expect(planCommit(group(), commit({ removes: [1] }))).toMatchObject({
      refusal: 'mlsSelfRemovalNotAllowed',
    });
  });

  it('refuses removing others without the remove_conversation_member permission', () => {
    expect(planCommit(group(), commit({ removes: [4], mayRemoveOthers: false }))).toMatchObject({
      refusal: 'actionDenied',
    });
  });

  it('does not count a client whose removal the backend proposed as one of its user’s', () => {
    // Bob's b2 was deleted: removing b1 alone removes Bob, and b2 alone is no one leaving.
    expect(planned(group({}, [3]), commit({ removes: [2] })).writes.left).toEqual([{ domain: D, user: 'bob' }]);
    expect(planned(group({}, [3]), commit({ removes: [3] })).writes.left).toEqual([]);
  });

  it('lets clients come and go freely in a subconversation and in a mixed conversation', () => {
    const some = commit({ removes: [1, 2], mayRemoveOthers: false });
    for (const g of [group({ subconv: 'call' }), group({ protocol: 'mixed' })]) {
      const plan = planned(g, some);
      expect(plan.writes.removedLeaves).toEqual([1, 2]);
      expect(plan.writes.left).toEqual([]);
    }
  });
});

describe('planCommit: additions and the new tree', () => {
  it('adds a new user’s clients at the leftmost free leaves in the commit’s order, joining the user once', () => {
    const adds = [client('dave', 'd2'), client('dave', 'd1')];
    const plan = planned(group({ leaves: new Map([...group().leaves].filter(([i]) => i !== 1)) }), commit({ adds }));
    expect(plan.added).toEqual([leaf(1, 'dave', 'd2'), leaf(5, 'dave', 'd1')]);
    expect(plan.writes.addedLeaves).toEqual(plan.added);
    expect(plan.writes.joined).toEqual([{ user: 'dave', domain: D, role: 'wire_member' }]);
  });

  it('places adds by reference and inline in the order of the proposal list', () => {
    const proposals = new Map([pending('YWRk', 'client', { add: client('dave', 'd1') })]);
    const plan = planned(
      group({ proposals }),
      commit({ references: ['YWRk'], adds: [client('erin', 'e1')], addOrder: [0, 'YWRk'] }),
    );
    expect(plan.added).toEqual([leaf(5, 'erin', 'e1'), leaf(6, 'dave', 'd1')]);
  });

  it('adds a member’s new client to the group without a member-join', () => {
    const plan = planned(group(), commit({ adds: [client('carol', 'c2')] }));
    expect(plan.added).toEqual([leaf(5, 'carol', 'c2')]);
    expect(plan.writes.joined).toEqual([]);
  });

  it('refuses adding a client that is in the group already', () => {
    expect(planCommit(group(), commit({ adds: [client('bob', 'b1')] }))).toEqual({
      ok: false,
      refusal: 'mlsProtocolError',
      message: 'Client is already a member of the group',
    });
  });

  it('lets a new client take a leaf freed by the same commit', () => {
    const plan = planned(group(), commit({ removes: [2, 3], adds: [client('dave', 'd1')] }));
    expect(plan.added).toEqual([leaf(2, 'dave', 'd1')]);
  });

  it('counts the committer as added by the first commit, which sets the suite', () => {
    const empty = group({ epoch: 0, suite: null, leaves: new Map() });
    const plan = planned(
      empty,
      commit({
        epoch: 0,
        suite: 2,
        adds: [client('bob', 'b1')],
      }),
    );
    expect(plan.removed).toEqual([]);
    expect(plan.added).toEqual([leaf(0, 'alice', 'a1'), leaf(1, 'bob', 'b1')]);
    expect(plan.writes.suite).toBe(2);
    expect(plan.writes.joined).toEqual([]);
  });

  it('refuses adding anyone but the sender in a subconversation', () => {
    const sub = group({ subconv: 'call' });
    expect(planCommit(sub, commit({ adds: [client('carol', 'c2')] }))).toMatchObject({
      message: 'Add proposals in subconversations are not supported',
    });
  });
});

describe('planCommit: external commits', () => {
  const joiner = { ...client('alice', 'a3'), connection: 'conn' };

  it('adds the joining client, drops clients’ proposals and requeues the backend’s removals', () => {
    const proposals = new Map([backendRemoval('cmVt', 3), pending('dXBk', 'client', { other: 'update' })]);
    const plan = planned(group({ proposals }, [3]), commit({ sender: joiner, senderLeaf: 'external', joinerLeaf: 5 }));
    expect(plan.added).toEqual([leaf(5, 'alice', 'a3')]);
    expect(plan.requeue).toEqual([{ ...leaf(3, 'bob', 'b2'), removalPending: true }]);
    expect(plan.writes.joined).toEqual([]);
  });

  it('refuses an external commit that removes another client', () => {
    expect(
      planCommit(
        group(),
        commit({
          sender: joiner,
          senderLeaf: 'external',
          joinerLeaf: 1,
          removes: [1],
        }),
      ),
    ).toMatchObject({
      refusal: 'mlsProtocolError',
      message: 'An external commit may only remove the sender’s own old leaf',
    });
  });

  it('does not requeue the backend’s removal of the old leaf the joiner removes itself', () => {
    const carol = { ...client('carol', 'c1'), connection: 'conn' };
    const plan = planned(
      group({ proposals: new Map([backendRemoval('b2xk', 4)]) }, [4]),
      commit({ sender: carol, senderLeaf: 'external', joinerLeaf: 4, removes: [4] }),
    );
    expect(plan.requeue).toEqual([]);
    expect(plan.added).toEqual([leaf(4, 'carol', 'c1')]);
    expect(plan.writes.left).toEqual([]);
  });

  it('lets a client rejoin at its own old leaf, the leftmost free one: no permission asked, nobody leaves', () => {
    // Alice's a2 lost its state and rejoins; she may not remove members and has another client.
    const a2 = { ...client('alice', 'a2'), connection: 'conn' };
    const plan = planned(
      group(),
      commit({
        sender: a2,
        senderLeaf: 'external',
        joinerLeaf: 1,
        removes: [1],
        mayRemoveOthers: false,
      }),
    );
    expect(plan.added).toEqual([leaf(1, 'alice', 'a2')]);
    expect(plan.writes.removedLeaves).toEqual([1]);
    expect(plan.writes.left).toEqual([]);
  });

  it('keeps a user with a single client in the conversation when that client rejoins', () => {
    const c1 = { ...client('carol', 'c1'), connection: 'conn' };
    const plan = planned(group(), commit({ sender: c1, senderLeaf: 'external', joinerLeaf: 4, removes: [4] }));
    expect(plan.writes.left).toEqual([]);
  });

  it('refuses an external commit whose joiner claims another leaf than the leftmost free one', () => {
    expect(planCommit(group(), commit({ sender: joiner, senderLeaf: 'external', joinerLeaf: 6 }))).toEqual({
      ok: false,
      refusal: 'mlsProtocolError',
      message: 'The external commit claims another leaf than the group gives its joiner',
    });
  });
});
