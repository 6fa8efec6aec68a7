import { beforeAll, describe, expect, it } from 'vitest';
import { splitCommitBundle } from '../../../../src/shared/mls/bundle.js';
import { readCommit, verifyCommitSignature, verifyPathLeafSignature } from '../../../../src/shared/mls/commit.js';
import type { GroupContext } from 'ts-mls/groupContext.js';
import type { PublicCommit } from '../../../../src/shared/mls/messages.js';
import { MlsError } from '../../../../src/shared/mls/mls-error.js';
import { concatBytes } from '../../../helpers/bytes.js';
import { treeLeaves } from '../../../helpers/group-info-tree.js';
import { type TsMlsGroupMessages, tsMlsGroupMessages } from '../../../helpers/ts-mls-group.js';

let group: TsMlsGroupMessages;
/** The GroupContext of epoch 1, where the commits below were made, and the key of its leaf 0, their sender. */
let epoch1: GroupContext;
let senderKey: Uint8Array;
beforeAll(async () => {
  group = await tsMlsGroupMessages();
  const info = splitCommitBundle(concatBytes(group.addCommit, group.groupInfo)).groupInfo;
  epoch1 = info.groupInfo.groupContext;
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
  it("accepts a member's commit with its key and its epoch's GroupContext", async () => {
    expect(await verifyCommitSignature(commitOf(group.commitByReference), epoch1, senderKey, 1)).toBe(true);
    expect(await verifyCommitSignature(commitOf(group.inlineRemoveCommit), epoch1, senderKey, 1)).toBe(true);
  });

  it('refuses a commit whose signature was altered', async () => {
    const commit = commitOf(group.commitByReference);
    const signature = commit.message.auth.signature.slice();
    signature[0]! ^= 1;
    const altered = { ...commit, message: { ...commit.message, auth: { ...commit.message.auth, signature } } };
    expect(await verifyCommitSignature(altered, epoch1, senderKey, 1)).toBe(false);
  });

  it('refuses, without throwing, a key that is unusable or another epoch', async () => {
    const commit = commitOf(group.commitByReference);
    expect(await verifyCommitSignature(commit, epoch1, new Uint8Array(3), 1)).toBe(false);
    expect(await verifyCommitSignature(commit, { ...epoch1, epoch: 2n }, senderKey, 1)).toBe(false);
  });
});
