import { beforeAll, describe, expect, it } from 'vitest';
import { splitCommitBundle } from '../../../../src/shared/mls/bundle.js';
import {
  readCommit,
  signedPart,
  verifyCommitSignature,
  verifyPathLeafSignature,
} from '../../../../src/shared/mls/commit.js';
import { readGroupInfo } from '../../../../src/shared/mls/group-info.js';
import type { PublicCommit } from '../../../../src/shared/mls/messages.js';
import { MlsError } from '../../../../src/shared/mls/mls-error.js';
import { concatBytes } from '../../../helpers/bytes.js';
import { treeLeaves } from '../../../helpers/group-info-tree.js';
import { type TsMlsGroupMessages, tsMlsGroupMessages } from '../../../helpers/ts-mls-group.js';

let group: TsMlsGroupMessages;
/** The GroupContext of epoch 1, where the commits below were made, and the key of its leaf 0, their sender. */
let epoch1: Uint8Array;
let senderKey: Uint8Array;
beforeAll(async () => {
  group = await tsMlsGroupMessages();
  const info = splitCommitBundle(concatBytes(group.addCommit, group.groupInfo)).groupInfo;
  epoch1 = readGroupInfo(info).context;
  senderKey = treeLeaves(info)[0]!.signatureKey;
});

const commitOf = (commit: Uint8Array) => splitCommitBundle(concatBytes(commit, group.groupInfo)).commit;

/** `commit` with its path leaf's signature key made unusable. */
function withUnusablePathKey(commit: PublicCommit): PublicCommit {
  const inner = commit.content.commit;
  const leafNode = { ...inner.path!.leafNode, signaturePublicKey: new Uint8Array(3) };
  return { ...commit, content: { ...commit.content, commit: { ...inner, path: { ...inner.path!, leafNode } } } };
}

describe('readCommit', () => {
  it('reads inline Removes and names the other inline proposals', async () => {
    const commit = await readCommit(commitOf(group.inlineRemoveCommit));
    expect(commit).toMatchObject({
      sender: { senderType: 'member', leafIndex: 0 },
      epoch: 1n,
      references: [],
      adds: [],
      removes: [1],
      externalInits: 0,
      otherProposals: ['group_context_extensions'],
    });
    expect(commit.pathLeaf?.leafNodeSource).toBe('commit');
  });

  it('reads an inline Add with the KeyPackage bytes as sent, hashed into its ref', async () => {
    const { adds } = await readCommit(commitOf(group.addCommit));
    expect(adds).toHaveLength(1);
    expect([...adds[0]!.bytes.subarray(0, 4)]).toEqual([0, 1, 0, 1]);
    expect(adds[0]!.ref).toHaveLength(32);
    const welcome = splitCommitBundle(concatBytes(group.addCommit, group.welcome, group.groupInfo)).welcome!;
    expect(welcome.welcome.secrets[0]!.newMember).toEqual(adds[0]!.ref);
  });

  it('refuses to read an added KeyPackage of a suite the backend does not support', async () => {
    const commit = commitOf(group.addCommit);
    const first = commit.content.commit.proposals[0]!;
    if (first.proposalOrRefType !== 'proposal' || !('add' in first.proposal)) throw new Error('not an inline Add');
    const keyPackage = {
      ...first.proposal.add.keyPackage,
      cipherSuite: 'MLS_256_DHKEMX448_AES256GCM_SHA512_Ed448' as const,
    };
    const proposals = [{ ...first, proposal: { proposalType: 'add' as const, add: { keyPackage } } }];
    const changed = { ...commit, content: { ...commit.content, commit: { ...commit.content.commit, proposals } } };
    await expect(readCommit(changed)).rejects.toThrow(
      new MlsError('mls-protocol-error', 'Unsupported ciphersuite 0x0004'),
    );
  });
});

describe('verifyPathLeafSignature', () => {
  it("accepts the committer's leaf at its own index", async () => {
    expect(await verifyPathLeafSignature(commitOf(group.inlineRemoveCommit), 1, 0)).toBe(true);
  });

  it('refuses, without throwing, a path leaf with an unusable key', async () => {
    const commit = withUnusablePathKey(commitOf(group.inlineRemoveCommit));
    expect(await verifyPathLeafSignature(commit, 1, 0)).toBe(false);
  });
});

describe('verifyCommitSignature', () => {
  const verify = (commit: PublicCommit, context = epoch1, key = senderKey) =>
    verifyCommitSignature(commit.bytes, signedPart(commit), context, key, 1);

  it("accepts a member's commit with its key and its epoch's GroupContext", async () => {
    expect(await verify(commitOf(group.commitByReference))).toBe(true);
    expect(await verify(commitOf(group.inlineRemoveCommit))).toBe(true);
    expect(await verify(commitOf(group.addCommit))).toBe(false); // made in epoch 0
  });

  it('refuses a commit whose signature or content was altered', async () => {
    const commit = commitOf(group.commitByReference);
    const signed = signedPart(commit);
    const signature = signed.signature.slice();
    signature[0]! ^= 1;
    expect(await verifyCommitSignature(commit.bytes, { ...signed, signature }, epoch1, senderKey, 1)).toBe(false);
    const bytes = commit.bytes.slice();
    bytes[signed.until - 1]! ^= 1;
    expect(await verifyCommitSignature(bytes, signed, epoch1, senderKey, 1)).toBe(false);
  });

  it('refuses, without throwing, a key that is unusable or another GroupContext', async () => {
    const commit = commitOf(group.commitByReference);
    expect(await verify(commit, epoch1, new Uint8Array(3))).toBe(false);
    const other = epoch1.slice();
    other[other.length - 1]! ^= 1;
    expect(await verify(commit, other)).toBe(false);
  });
});
