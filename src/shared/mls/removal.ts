import { refhash } from 'ts-mls/crypto/hash.js';
import type { Hash } from 'ts-mls/crypto/hash.js';
import { type FramedContent, signFramedContentTBS } from 'ts-mls/framedContent.js';
import { encodeMlsMessage } from 'ts-mls/message.js';
import type { PublicMessage } from 'ts-mls/publicMessage.js';
import type { PublicProposal } from './messages.js';
import { supportedSuiteImpl } from './mls-error.js';

/** What the backend signs a Remove proposal for. */
interface RemovalRequest {
  /** The group's cipher suite: its signature scheme picks the removal key, its hash the ref. */
  suite: number;
  /** The removal key for that scheme: an Ed25519 32-byte seed, or an ECDSA raw private scalar. */
  signingKey: Uint8Array;
  groupId: Uint8Array;
  /** The group's current epoch. */
  epoch: bigint;
  leafIndex: number;
}

/** A proposal the backend made: the MLSMessage to fan out and the ProposalRef a commit must cite. */
export interface SignedProposal {
  message: Uint8Array;
  ref: Uint8Array;
}

/** The size of a varint length prefix (RFC 9420 §2.1.2) for `length` bytes. */
const varintSize = (length: number) => (length < 64 ? 1 : length < 16384 ? 2 : 4);

/**
 * RefHash("MLS 1.0 Proposal Reference", AuthenticatedContent) over the message's own bytes: the
 * AuthenticatedContent (wire format ‖ FramedContent ‖ FramedContentAuthData) is the MLSMessage
 * without its protocol version and without a member's membership tag.
 */
function authenticatedContentRef(message: Uint8Array, membershipTag: Uint8Array | undefined, hash: Hash) {
  const tagSize = membershipTag === undefined ? 0 : varintSize(membershipTag.length) + membershipTag.length;
  return refhash('MLS 1.0 Proposal Reference', message.subarray(2, message.length - tagSize), hash);
}

/** The ProposalRef of a proposal a client sent, hashed with the group's suite. */
export async function proposalRef(suite: number, proposal: PublicProposal): Promise<Uint8Array> {
  const { hash } = await supportedSuiteImpl(suite);
  const membershipTag = proposal.message.senderType === 'member' ? proposal.message.membershipTag : undefined;
  return authenticatedContentRef(proposal.bytes, membershipTag, hash);
}

/**
 * The backend's Remove proposal for one leaf, as wire-server makes it: a PublicMessage from
 * external sender 0 at the group's current epoch, with empty authenticated data and no membership
 * tag, signed with the removal key (SignWithLabel "FramedContentTBS"; for an external sender the
 * signed content holds no GroupContext, so group id and epoch suffice).
 */
export async function signRemoveProposal(request: RemovalRequest): Promise<SignedProposal> {
  const { signature, hash } = await supportedSuiteImpl(request.suite);
  const content: FramedContent = {
    groupId: request.groupId,
    epoch: request.epoch,
    sender: { senderType: 'external', senderIndex: 0 },
    authenticatedData: new Uint8Array(),
    contentType: 'proposal',
    proposal: { proposalType: 'remove', remove: { removed: request.leafIndex } },
  };
  const tbs = { protocolVersion: 'mls10', wireformat: 'mls_public_message', content, senderType: 'external' } as const;
  const publicMessage: PublicMessage = {
    content,
    auth: { contentType: 'proposal', signature: await signFramedContentTBS(request.signingKey, tbs, signature) },
    senderType: 'external',
  };
  const message = encodeMlsMessage({ version: 'mls10', wireformat: 'mls_public_message', publicMessage });
  return { message, ref: await authenticatedContentRef(message, undefined, hash) };
}
