/**
 * A small MLS group of ts-mls clients (suite 1, no external senders), and the messages it sent, for
 * tests that need well-formed messages to take apart, reorder or break. Wire-realistic groups
 * (external senders, external commits) come from core-crypto (`core-crypto.ts`) instead.
 */
import {
  acceptAll,
  type CiphersuiteImpl,
  type ClientState,
  createApplicationMessage,
  createCommit,
  createGroup,
  createGroupInfoWithExternalPub,
  createGroupInfoWithExternalPubAndRatchetTree,
  createProposal,
  defaultCapabilities,
  emptyPskIndex,
  encodeMlsMessage,
  generateKeyPackage,
  getCiphersuiteFromName,
  getCiphersuiteImpl,
  joinGroup,
  type KeyPackage,
  type MLSMessage,
  type Proposal,
  processMessage,
} from 'ts-mls';

const SUITE = 'MLS_128_DHKEMX25519_AES128GCM_SHA256_Ed25519';

/** The bytes of every message the group sent, each a whole MLSMessage. */
export interface TsMlsGroupMessages {
  groupId: Uint8Array;
  /** Alice adds Bob (epoch 0 → 1): its commit, Welcome and GroupInfo (with ratchet tree). */
  addCommit: Uint8Array;
  welcome: Uint8Array;
  groupInfo: Uint8Array;
  /** A GroupInfo of epoch 1 without the ratchet tree extension. */
  groupInfoWithoutTree: Uint8Array;
  /** Bob's public proposal (a member's: with membership tag) to add Carol, at epoch 1. */
  proposal: Uint8Array;
  /** Alice's commit of Bob's proposal, by reference. */
  commitByReference: Uint8Array;
  /** Alice's commits at epoch 1 with inline proposals: removing Bob and a GroupContextExtensions. */
  inlineRemoveCommit: Uint8Array;
  /** The same Remove committed as a PrivateMessage. */
  privateCommit: Uint8Array;
  /** Alice's application message at epoch 1. */
  application: Uint8Array;
  /** Carol's KeyPackage as an MLSMessage. */
  keyPackageMessage: Uint8Array;
}

const encode = (message: MLSMessage) => encodeMlsMessage(message);

/** Alice creates a group, adds Bob, and both send what the tests take apart. */
export async function tsMlsGroupMessages(): Promise<TsMlsGroupMessages> {
  const impl = await getCiphersuiteImpl(getCiphersuiteFromName(SUITE));
  const lifetime = { notBefore: 0n, notAfter: 2n ** 62n };
  const member = (name: string) =>
    generateKeyPackage(
      { credentialType: 'basic', identity: new TextEncoder().encode(name) },
      defaultCapabilities(),
      lifetime,
      [],
      impl,
    );
  const [alice, bob, carol] = await Promise.all([member('alice'), member('bob'), member('carol')]);
  const groupId = crypto.getRandomValues(new Uint8Array(32));
  const publicCommit = (state: ClientState, extraProposals: Proposal[] = [], wireAsPublicMessage = true) =>
    createCommit({ state, cipherSuite: impl }, { wireAsPublicMessage, ratchetTreeExtension: true, extraProposals });
  const add = (keyPackage: KeyPackage): Proposal => ({ proposalType: 'add', add: { keyPackage } });

  const aliceAt0 = await createGroup(groupId, alice.publicPackage, alice.privatePackage, [], impl);
  const added = await publicCommit(aliceAt0, [add(bob.publicPackage)]);
  const aliceAt1 = added.newState;
  const bobAt1 = await joinGroup(added.welcome!, bob.publicPackage, bob.privatePackage, emptyPskIndex, impl);
  const groupInfo = await createGroupInfoWithExternalPubAndRatchetTree(aliceAt1, [], impl);
  const groupInfoWithoutTree = await createGroupInfoWithExternalPub(aliceAt1, [], impl);

  const proposal = await createProposal(bobAt1, true, add(carol.publicPackage), impl);
  const aliceWithProposal = await processIncoming(aliceAt1, proposal.message, impl);
  const byReference = await publicCommit(aliceWithProposal);

  const removeBob: Proposal = { proposalType: 'remove', remove: { removed: 1 } };
  const noExtensions: Proposal = {
    proposalType: 'group_context_extensions',
    groupContextExtensions: { extensions: [] },
  };
  const inlineRemove = await publicCommit(aliceAt1, [removeBob, noExtensions]);
  const privateCommit = await publicCommit(aliceAt1, [removeBob], false);
  const application = await createApplicationMessage(aliceAt1, new TextEncoder().encode('hello'), impl);

  return {
    groupId,
    addCommit: encode(added.commit),
    welcome: encode({ version: 'mls10', wireformat: 'mls_welcome', welcome: added.welcome! }),
    groupInfo: encode({ version: 'mls10', wireformat: 'mls_group_info', groupInfo }),
    groupInfoWithoutTree: encode({ version: 'mls10', wireformat: 'mls_group_info', groupInfo: groupInfoWithoutTree }),
    proposal: encode(proposal.message),
    commitByReference: encode(byReference.commit),
    inlineRemoveCommit: encode(inlineRemove.commit),
    privateCommit: encode(privateCommit.commit),
    application: encode({
      version: 'mls10',
      wireformat: 'mls_private_message',
      privateMessage: application.privateMessage,
    }),
    keyPackageMessage: encode({ version: 'mls10', wireformat: 'mls_key_package', keyPackage: carol.publicPackage }),
  };
}

/** A member's state after it processed a public or private message. */
async function processIncoming(state: ClientState, message: MLSMessage, impl: CiphersuiteImpl): Promise<ClientState> {
  if (message.wireformat !== 'mls_public_message' && message.wireformat !== 'mls_private_message') {
    throw new Error(`cannot process a ${message.wireformat}`);
  }
  return (await processMessage(message, state, emptyPskIndex, acceptAll, impl)).newState;
}
