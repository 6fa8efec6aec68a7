import type { Extension } from 'ts-mls/extension.js';
import { decodeGroupContext } from 'ts-mls/groupContext.js';
import { decodeGroupInfo, type GroupInfo } from 'ts-mls/groupInfo.js';
import { decodeAt, decodeExactly } from './decoding.js';
import { protocolError } from './mls-error.js';
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

/**
 * What the backend reads from a GroupInfo: its GroupContext and signer. Its ratchet tree, which
 * grows with the group, is carried for the clients (an external join needs it) and never decoded:
 * the group's leaves are the backend's own, moved on by each commit's proposals (commit-plan.ts).
 */
export interface GroupInfoContents {
  /** The cipher suite's number (also for suites ts-mls does not know, such as 0xf031). */
  suite: number;
  groupId: Uint8Array;
  epoch: bigint;
  /** The GroupContext extensions (`external_senders`, `required_capabilities`…), their data opaque. */
  extensions: Extension[];
  /** The leaf index of the member who signed it: the committer, in the new epoch. */
  signer: number;
  /** The GroupContext as encoded (the GroupInfo's first field): what the epoch's messages are signed with. */
  context: Uint8Array;
}

/**
 * Reads a GroupInfo. Its ratchet tree must be there (the `ratchet_tree` extension, undecoded):
 * clients need it to join by external commit. A GroupInfo without one is a `mls-protocol-error`.
 */
export function readGroupInfo({ bytes, groupInfo }: GroupInfoPart): GroupInfoContents {
  if (!groupInfo.extensions.some((e) => e.extensionType === 'ratchet_tree'))
    throw protocolError('GroupInfo without a ratchet tree');
  const context = groupInfo.groupContext;
  return {
    suite: suiteNumber(context.cipherSuite),
    groupId: context.groupId,
    epoch: context.epoch,
    extensions: context.extensions,
    signer: groupInfo.signer,
    context: bytes.subarray(0, decodeAt(decodeGroupContext, bytes, 0)![1]),
  };
}
