import { ed25519 } from '@noble/curves/ed25519.js';
import { p256 } from '@noble/curves/nist.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { type CommitBundle, splitCommitBundle } from '../../../../src/shared/mls/bundle.js';
import {
  type CommitContents,
  readCommit,
  signedPart,
  verifyCommitSignature,
  verifyPathLeafSignature,
} from '../../../../src/shared/mls/commit.js';
import { externalSenders } from '../../../../src/shared/mls/external-senders.js';
import { decodeGroupInfoBytes, type GroupInfoContents, readGroupInfo } from '../../../../src/shared/mls/group-info.js';
import { treeLeaves } from '../../../helpers/group-info-tree.js';
import { classifyPostedMessage } from '../../../../src/shared/mls/messages.js';
import { proposalRef, type SignedProposal, signRemoveProposal } from '../../../../src/shared/mls/removal.js';
import {
  bundleBody,
  type CommitBundleBytes,
  type Decrypted,
  newMlsClient,
  type TestKeyPackage,
  type TestMlsClient,
} from '../../../helpers/core-crypto.js';

const DOMAIN = 'example.com';
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const basicIdentity = (leaf: { credential: { credentialType: string; identity?: Uint8Array } }) =>
  leaf.credential.credentialType === 'basic' ? text(leaf.credential.identity!) : leaf.credential.credentialType;

/** The backend's removal key pair for suite 1 or 2, the public key raw as wire-server serves it. */
function removalKeys(suite: number) {
  if (suite === 1) {
    const secretKey = ed25519.utils.randomSecretKey();
    return { secretKey, publicKey: ed25519.getPublicKey(secretKey) };
  }
  const secretKey = p256.utils.randomSecretKey();
  return { secretKey, publicKey: p256.getPublicKey(secretKey, false) }; // uncompressed: 04‖X‖Y
}

/** One group's life, recorded: a creator adds a client, the backend removes it, a third joins externally. */
interface Story {
  groupId: Uint8Array;
  removalPublicKey: Uint8Array;
  alice: TestMlsClient;
  bob: TestMlsClient;
  carol: TestMlsClient;
  bobKeyPackage: TestKeyPackage;
  add: { sent: CommitBundleBytes; bundle: CommitBundle; commit: CommitContents; groupInfo: GroupInfoContents };
  removal: SignedProposal;
  removalSeenBy: { alice: Decrypted; bob: Decrypted };
  remove: { bundle: CommitBundle; commit: CommitContents; groupInfo: GroupInfoContents };
  bobAfterRemove: Decrypted;
  join: { bundle: CommitBundle; commit: CommitContents };
  aliceAfterJoin: Decrypted;
}

async function tell(suite: number): Promise<Story> {
  const client = (user: string, id: string) => newMlsClient({ user, client: id, domain: DOMAIN, suite });
  const alice = await client('00000000-0000-4000-8000-00000000000a', 'a1');
  const bob = await client('00000000-0000-4000-8000-00000000000b', 'b2');
  const carol = await client('00000000-0000-4000-8000-00000000000c', 'c3');
  const groupId = crypto.getRandomValues(new Uint8Array(32));
  const removalKey = removalKeys(suite);
  const read = async (body: Uint8Array) => {
    const bundle = splitCommitBundle(body);
    return { bundle, commit: await readCommit(bundle.commit), groupInfo: readGroupInfo(bundle.groupInfo) };
  };

  await alice.createConversation(groupId, removalKey.publicKey);
  const bobKeyPackage = await bob.keyPackage();
  const addSent = await alice.addClients(groupId, [bobKeyPackage.bytes]);
  const add = { sent: addSent, ...(await read(bundleBody(addSent))) };
  await bob.processWelcome(add.bundle.welcome!.bytes);

  const removal = await signRemoveProposal({
    suite,
    signingKey: removalKey.secretKey,
    groupId,
    epoch: 1n,
    leafIndex: 1,
  });
  const removalSeenBy = {
    bob: await bob.decrypt(groupId, removal.message),
    alice: await alice.decrypt(groupId, removal.message),
  };
  const removeBundle = await alice.commitPendingProposals(groupId);
  const remove = await read(bundleBody(removeBundle!));
  const bobAfterRemove = await bob.decrypt(groupId, remove.bundle.commit.bytes);

  const joinBundle = splitCommitBundle(bundleBody(await carol.joinByExternalCommit(remove.bundle.groupInfo.bytes)));
  const join = { bundle: joinBundle, commit: await readCommit(joinBundle.commit) };
  const aliceAfterJoin = await alice.decrypt(groupId, joinBundle.commit.bytes);
  return {
    groupId,
    removalPublicKey: removalKey.publicKey,
    alice,
    bob,
    carol,
    bobKeyPackage,
    add,
    removal,
    removalSeenBy,
    remove,
    bobAfterRemove,
    join,
    aliceAfterJoin,
  };
}

describe.each([1, 2])('MLS messages of core-crypto clients, suite %i', (suite) => {
  let story: Story;
  beforeAll(async () => {
    story = await tell(suite);
  });

  describe('a commit bundle adding a client', () => {
    it('splits into the commit, Welcome and GroupInfo as the client sent them', () => {
      const { sent, bundle } = story.add;
      expect(bundle.commit.bytes).toEqual(sent.commit);
      expect(bundle.welcome?.bytes).toEqual(sent.welcome);
      expect(bundle.welcome?.welcome.secrets).toHaveLength(1);
      expect(bundle.privateMessage).toBeUndefined();
      expect([...sent.groupInfo.subarray(0, 4)]).toEqual([0, 1, 0, 4]);
      expect(bundle.groupInfo.bytes).toEqual(sent.groupInfo.subarray(4));
    });

    it('reads the commit: member leaf 0 at epoch 0, adding the key package by its ref', async () => {
      const { commit } = story.add;
      expect(commit.sender).toEqual({ senderType: 'member', leafIndex: 0 });
      expect(commit.epoch).toBe(0n);
      expect(commit.groupId).toEqual(story.groupId);
      expect(commit.adds).toHaveLength(1);
      expect(commit.adds[0]!.bytes).toEqual(story.bobKeyPackage.bytes);
      expect(commit.adds[0]!.ref).toEqual(story.bobKeyPackage.ref);
      expect(story.add.bundle.welcome!.welcome.secrets[0]!.newMember).toEqual(commit.adds[0]!.ref);
      expect({ ...commit, adds: [] }).toMatchObject({ references: [], removes: [], externalInits: 0 });
    });

    it('reads the GroupInfo: suite, group, epoch 1, its signer the committer', () => {
      expect(story.add.groupInfo).toMatchObject({ suite, groupId: story.groupId, epoch: 1n, signer: 0 });
    });

    it('has the tree the backend works out: the creator at leaf 0, the added client at the leftmost free leaf', () => {
      expect(treeLeaves(story.add.bundle.groupInfo).map((leaf) => [leaf.index, basicIdentity(leaf)])).toEqual([
        [0, story.alice.identity],
        [1, story.bob.identity],
      ]);
    });

    it('finds the removal key as external sender 0 in the group context', () => {
      const senders = externalSenders(story.add.groupInfo.extensions);
      expect(senders).toHaveLength(1);
      expect(senders![0]!.signatureKey).toEqual(story.removalPublicKey);
      expect(basicIdentity(senders![0]!)).toBe('wire-server');
    });

    it('keeps the stored GroupInfo bytes decodable to the same GroupInfo', () => {
      const stored = decodeGroupInfoBytes(story.add.bundle.groupInfo.bytes.slice());
      expect(readGroupInfo(stored)).toEqual(story.add.groupInfo);
      expect(treeLeaves(stored)).toEqual(treeLeaves(story.add.bundle.groupInfo));
    });
  });

  describe("the backend's Remove proposal", () => {
    it('is taken as a proposal by every member', () => {
      expect(story.removalSeenBy.bob.kind).toBe('proposal');
      expect(story.removalSeenBy.alice.kind).toBe('proposal');
    });

    it('is committed by reference: the commit cites exactly its ProposalRef', () => {
      const { commit } = story.remove;
      expect(commit.references).toEqual([story.removal.ref]);
      expect(commit).toMatchObject({ sender: { senderType: 'member', leafIndex: 0 }, epoch: 1n, adds: [] });
    });

    it('has the ref a client-sent proposal of the same bytes would get', async () => {
      const posted = classifyPostedMessage(story.removal.message);
      expect(posted.kind).toBe('proposal');
      if (posted.kind === 'proposal') expect(await proposalRef(suite, posted.proposal)).toEqual(story.removal.ref);
    });

    it('removes the client: it sees itself inactive, and the GroupInfo drops its leaf', () => {
      expect(story.bobAfterRemove).toEqual({ kind: 'commit', isActive: false });
      expect(story.remove.groupInfo.epoch).toBe(2n);
      expect(treeLeaves(story.remove.bundle.groupInfo).map((leaf) => leaf.index)).toEqual([0]);
    });
  });

  describe('commit signatures', () => {
    it("verify a member's path leaf at its own index only", async () => {
      const { commit } = story.remove.bundle;
      expect(story.remove.commit.pathLeaf).toBeDefined();
      expect(await verifyPathLeafSignature(commit, suite, 0)).toBe(true);
      expect(await verifyPathLeafSignature(commit, suite, 1)).toBe(false);
    });

    it('find no path leaf to verify in an add-only commit', async () => {
      expect(story.add.commit.pathLeaf).toBeUndefined();
      expect(await verifyPathLeafSignature(story.add.bundle.commit, suite, 0)).toBe(false);
    });

    it("verify a member's commit with its key and its epoch's GroupContext, not another epoch's", async () => {
      const { commit } = story.remove.bundle;
      const key = treeLeaves(story.add.bundle.groupInfo)[0]!.signatureKey;
      const epochOf = (s: { bundle: CommitBundle }) => readGroupInfo(s.bundle.groupInfo).context;
      const verify = (context: Uint8Array) =>
        verifyCommitSignature(commit.bytes, signedPart(commit), context, key, suite);
      expect(await verify(epochOf(story.add))).toBe(true);
      expect(await verify(epochOf(story.remove))).toBe(false);
    });
  });

  describe('an external commit', () => {
    it('reads as new_member_commit with one ExternalInit, a path and no Welcome', () => {
      const { join } = story;
      expect(join.commit.sender).toEqual({ senderType: 'new_member_commit' });
      expect(join.commit).toMatchObject({ epoch: 2n, externalInits: 1, references: [], adds: [], removes: [] });
      expect(join.commit.pathLeaf?.credential).toEqual(expect.objectContaining({ credentialType: 'basic' }));
      expect(basicIdentity(join.commit.pathLeaf!)).toBe(story.carol.identity);
      expect(join.bundle.welcome).toBeUndefined();
      expect(story.aliceAfterJoin).toEqual({ kind: 'commit', isActive: true });
    });

    it("verifies with the joiner's path leaf key against the GroupContext it joined from", async () => {
      const { commit } = story.join.bundle;
      const context = readGroupInfo(story.remove.bundle.groupInfo).context;
      const key = story.join.commit.pathLeaf!.signaturePublicKey;
      expect(await verifyCommitSignature(commit.bytes, signedPart(commit), context, key, suite)).toBe(true);
      expect(await verifyPathLeafSignature(commit, suite, 1)).toBe(true);
    });

    it('takes the leftmost free leaf, the one its new GroupInfo names as signer', () => {
      const { groupInfo } = story.join.bundle;
      expect(readGroupInfo(groupInfo).signer).toBe(1);
      expect(treeLeaves(groupInfo).map((leaf) => [leaf.index, basicIdentity(leaf)])).toEqual([
        [0, story.alice.identity],
        [1, story.carol.identity],
      ]);
    });
  });
});
