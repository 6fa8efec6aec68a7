import type { Credential } from 'ts-mls/credential.js';
import type { Extension } from 'ts-mls/extension.js';
import {
  decodeGroupInfo,
  type GroupInfo,
  ratchetTreeFromExtension,
  verifyGroupInfoSignature as verifySignedGroupInfo,
} from 'ts-mls/groupInfo.js';
import type { RatchetTree } from 'ts-mls/ratchetTree.js';
import { decodeExactly } from './decoding.js';
import { protocolError, supportedSuiteImpl } from './mls-error.js';
import { suiteNumber } from './suites.js';

/**
 * A GroupInfo with its bytes: the inner GroupInfo without the MLSMessage header, which is what the
 * backend stores and serves on `GET …/groupinfo` (and what core-crypto's external join wants).
 */
export interface GroupInfoPart {
  bytes: Uint8Array;
  groupInfo: GroupInfo;
}

/** Decodes stored GroupInfo bytes (the inner GroupInfo); a `mls-protocol-error` if they do not decode. */
export function decodeGroupInfoBytes(bytes: Uint8Array): GroupInfoPart {
  return { bytes, groupInfo: decodeExactly(decodeGroupInfo, bytes, 'GroupInfo') };
}

/** An occupied leaf of the ratchet tree: a member client. */
interface GroupLeaf {
  index: number;
  /** The raw credential: a basic identity's bytes, or an x509 chain. */
  credential: Credential;
  signatureKey: Uint8Array;
}

/** What the backend reads from a GroupInfo. */
export interface GroupInfoContents {
  /** The cipher suite's number (also for suites ts-mls does not know, such as 0xf031). */
  suite: number;
  groupId: Uint8Array;
  epoch: bigint;
  /** The GroupContext extensions (`external_senders`, `required_capabilities`…), their data opaque. */
  extensions: Extension[];
  /** The leaf index of the member who signed it. */
  signer: number;
  /** The occupied leaves, by ascending index. */
  leaves: GroupLeaf[];
  /** The decoded GroupInfo and its ratchet tree, which the signature checks use. */
  groupInfo: GroupInfo;
  tree: RatchetTree;
}

/** The leaf at `index` of a ratchet tree (node 2·index), if occupied. */
function leafOf(tree: RatchetTree, index: number): GroupLeaf | undefined {
  const node = tree[2 * index];
  return node?.nodeType === 'leaf'
    ? { index, credential: node.leaf.credential, signatureKey: node.leaf.signaturePublicKey }
    : undefined;
}

/** The occupied leaves of a ratchet tree. */
function occupiedLeaves(tree: RatchetTree): GroupLeaf[] {
  const leaves: GroupLeaf[] = [];
  for (let index = 0; 2 * index < tree.length; index++) {
    const leaf = leafOf(tree, index);
    if (leaf !== undefined) leaves.push(leaf);
  }
  return leaves;
}

/**
 * Reads a GroupInfo. Its ratchet tree must be there (the `ratchet_tree` extension): the backend
 * needs it for the members' leaves, and clients need it to join by external commit. A missing or
 * undecodable tree is a `mls-protocol-error`.
 */
export function readGroupInfo({ groupInfo }: GroupInfoPart): GroupInfoContents {
  let tree: RatchetTree | undefined;
  try {
    tree = ratchetTreeFromExtension(groupInfo);
  } catch {
    throw protocolError('Malformed ratchet tree in GroupInfo');
  }
  if (tree === undefined) throw protocolError('GroupInfo without a ratchet tree');
  const context = groupInfo.groupContext;
  return {
    suite: suiteNumber(context.cipherSuite),
    groupId: context.groupId,
    epoch: context.epoch,
    extensions: context.extensions,
    signer: groupInfo.signer,
    leaves: occupiedLeaves(tree),
    groupInfo,
    tree,
  };
}

/** The leaf at `index` of the GroupInfo's tree, if occupied. */
export const leafAt = (info: GroupInfoContents, index: number) => leafOf(info.tree, index);

/**
 * Whether the GroupInfo's signature is its signer's, with the signer's key from its own ratchet
 * tree (false when that leaf is blank). An unsupported suite is a `mls-protocol-error`.
 */
export async function verifyGroupInfoSignature(info: GroupInfoContents): Promise<boolean> {
  const { signature } = await supportedSuiteImpl(info.suite);
  const signer = leafAt(info, info.signer);
  if (signer === undefined) return false;
  try {
    return await verifySignedGroupInfo(info.groupInfo, signer.signatureKey, signature);
  } catch {
    return false;
  }
}
