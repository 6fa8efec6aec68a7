// What a conversation's MLS group is, and what a commit changes of it: the types the pure commit
// planning (commit-plan.ts) shares with the store that reads and writes them (group-store.ts).
import type { GroupLeaf, ProposalEffect } from '../../../shared/mls/delivery.js';
import type { QualifiedRef } from '../../../shared/proteus/types.js';

/**
 * Lookups into a group's leaves, so that a commit's checks cost what it touches, not the group's
 * size: each client's leaf, each user's leaves, and how many leaves are other backends' clients.
 * Built once per group (kept with it, see GroupRow.index; group-index.ts) and moved on by each
 * commit.
 */
export interface GroupIndex {
  leafOf: Map<string, number>;
  leavesOf: Map<string, Set<number>>;
  remote: number;
}

/** A proposal of the current epoch that the next commit must reference. */
export interface PendingProposal {
  ref: string;
  origin: 'backend' | 'client';
  effect: ProposalEffect;
  message: string;
}

/** A conversation's MLS group (or one of its subconversations') as D1 holds it. */
export interface GroupRow {
  conv: QualifiedRef;
  /** The subconversation, for a subconversation's group. */
  subconv?: string | undefined;
  /** The parent conversation's protocol and type. */
  protocol: string;
  type: number;
  team: string | null;
  groupId: string | null;
  epoch: number;
  /** When the group moved to its epoch (ms); null before its first commit. */
  epochTimestamp: number | null;
  suite: number | null;
  /** Members of the (parent) conversation (users), as `domain/user`. */
  members: Set<string>;
  leaves: Map<number, GroupLeaf & { removalPending: boolean }>;
  proposals: Map<string, PendingProposal>;
  /** The last commit the group took (see LastCommit). */
  lastCommit?: LastCommit | undefined;
  /** Whether the notification objects holding the group's clients keep its roster (see GroupRoster). */
  rosterKept: boolean;
  /**
   * How many of the group's local clients each notification object holds: found once (their users'
   * objects), then moved on by each change (see GroupRoster).
   */
  objects?: Map<string, number> | undefined;
  /** Lookups into the leaves, built when first needed (see GroupIndex). */
  index?: GroupIndex | undefined;
}

/**
 * The last commit a group took: its digest (sha256, hex), the answer (a DeliveryResult's JSON) and
 * the GroupContext it moved the group to (base64; absent for commits taken before it was kept).
 */
export interface LastCommit {
  digest: string;
  result: string;
  context?: string | undefined;
}

/** What a commit changes, written in one batch (all or nothing). */
export interface CommitWrites {
  conv: QualifiedRef;
  subconv?: string | undefined;
  groupId: string;
  epoch: number;
  suite: number;
  now: number;
  removedLeaves: number[];
  addedLeaves: GroupLeaf[];
  groupInfo: Uint8Array;
  lastCommit: LastCommit;
  joined: Array<{ user: string; domain: string; role: string }>;
  left: Array<{ user: string; domain: string }>;
}
