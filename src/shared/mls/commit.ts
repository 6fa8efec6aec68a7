import { decodeUint64 } from 'ts-mls/codec/number.js';
import type { Decoder } from 'ts-mls/codec/tlsDecoder.js';
import { decodeVarLenData, determineLength } from 'ts-mls/codec/variableLength.js';
import { refhash } from 'ts-mls/crypto/hash.js';
import type { KeyPackage } from 'ts-mls/keyPackage.js';
import { type LeafNodeCommit, verifyLeafNodeSignature } from 'ts-mls/leafNode.js';
import { decodeProposalOrRef } from 'ts-mls/proposalOrRefType.js';
import { decodeSender, type Sender } from 'ts-mls/sender.js';
import { decodeAt } from './decoding.js';
import { MLS_MESSAGE_HEADER, type PublicCommit } from './messages.js';
import { protocolError, supportedSuiteImpl } from './mls-error.js';
import { suiteNumber } from './suites.js';

/** A KeyPackage a commit adds inline. */
interface AddedKeyPackage {
  /** The KeyPackage's bytes exactly as in the commit (the input of its ref and of its validation). */
  bytes: Uint8Array;
  /** Its KeyPackageRef, hashed over `bytes` with its own suite's hash. */
  ref: Uint8Array;
  keyPackage: KeyPackage;
}

/** What the backend reads from a commit. */
export interface CommitContents {
  groupId: Uint8Array;
  epoch: bigint;
  /** `member` (with its leaf index) for a member's commit, `new_member_commit` for an external one. */
  sender: Sender;
  /** The ProposalRefs of the proposals it commits by reference. */
  references: Uint8Array[];
  adds: AddedKeyPackage[];
  /**
   * What may add a client, in the order of the proposal list: an index into `adds`, or a
   * reference (which adds when the proposal it names is an Add).
   */
  addOrder: Array<number | Uint8Array>;
  /** The leaf indices it removes inline. */
  removes: number[];
  /** How many ExternalInit proposals it carries inline. */
  externalInits: number;
  /** The types of the other inline proposals (update, psk…), which the backend does not act on. */
  otherProposals: Array<string | number>;
  /** The committer's new leaf, when the commit has an update path. */
  pathLeaf: LeafNodeCommit | undefined;
}

/** ProposalOrRef type (u8) and proposal type (u16) before an inline Add's KeyPackage. */
const INLINE_PROPOSAL_HEADER = 3;
/** The FramedContent fields before the content type: group id, epoch, sender, authenticated data. */
const FRAMED_CONTENT_HEADER: Decoder<unknown>[] = [decodeVarLenData, decodeUint64, decodeSender, decodeVarLenData];

/**
 * The bytes of each ProposalOrRef of a commit, in order. ts-mls decodes the structure but keeps no
 * bytes, and a KeyPackage's ref must be hashed over the bytes the client sent, not a re-encoding.
 */
function proposalOrRefBytes(commit: PublicCommit): Uint8Array[] {
  const bytes = commit.bytes;
  const next = (decoder: Decoder<unknown>, offset: number) => {
    const decoded = decodeAt(decoder, bytes, offset);
    if (decoded === undefined) throw protocolError('Malformed commit');
    return offset + decoded[1];
  };
  const contentType = FRAMED_CONTENT_HEADER.reduce((offset, decoder) => next(decoder, offset), MLS_MESSAGE_HEADER);
  const vector = determineLength(bytes, contentType + 1);
  const start = contentType + 1 + vector.lengthFieldSize;
  const items: Uint8Array[] = [];
  for (let offset = start; offset < start + vector.length; ) {
    const end = next(decodeProposalOrRef, offset);
    items.push(bytes.subarray(offset, end));
    offset = end;
  }
  return items;
}

/** The KeyPackage of an inline Add: its bytes (those of the ProposalOrRef after its header) and ref. */
async function addedKeyPackage(keyPackage: KeyPackage, proposalOrRef: Uint8Array): Promise<AddedKeyPackage> {
  const bytes = proposalOrRef.subarray(INLINE_PROPOSAL_HEADER);
  const { hash } = await supportedSuiteImpl(suiteNumber(keyPackage.cipherSuite));
  return { bytes, ref: await refhash('MLS 1.0 KeyPackage Reference', bytes, hash), keyPackage };
}

/**
 * Reads a commit: who sent it, the proposals it references, what it adds and removes inline, and
 * its path leaf. An added KeyPackage of a suite the backend does not support is a
 * `mls-protocol-error`; nothing here checks the KeyPackages themselves.
 */
export async function readCommit(commit: PublicCommit): Promise<CommitContents> {
  const { groupId, epoch, sender } = commit.content;
  const { proposals, path } = commit.content.commit;
  const contents: CommitContents = {
    groupId,
    epoch,
    sender,
    references: [],
    adds: [],
    addOrder: [],
    removes: [],
    externalInits: 0,
    otherProposals: [],
    pathLeaf: path?.leafNode,
  };
  let rawProposals: Uint8Array[] | undefined;
  for (const [i, item] of proposals.entries()) {
    if (item.proposalOrRefType === 'reference') {
      contents.references.push(item.reference);
      contents.addOrder.push(item.reference);
      continue;
    }
    const proposal = item.proposal;
    if ('add' in proposal) {
      rawProposals ??= proposalOrRefBytes(commit);
      contents.addOrder.push(contents.adds.length);
      contents.adds.push(await addedKeyPackage(proposal.add.keyPackage, rawProposals[i]!));
    } else if ('remove' in proposal) {
      contents.removes.push(proposal.remove.removed);
    } else if ('externalInit' in proposal) {
      contents.externalInits++;
    } else {
      contents.otherProposals.push(proposal.proposalType);
    }
  }
  return contents;
}

/**
 * Whether the signature of the commit's path leaf (LeafNodeTBS with source `commit`: group id and
 * the committer's leaf index) is valid: false when there is no path. `leafIndex` is the sender's
 * for a member commit, and for an external commit the leaf the joiner takes.
 */
export async function verifyPathLeafSignature(
  commit: PublicCommit,
  suite: number,
  leafIndex: number,
): Promise<boolean> {
  const leaf = commit.content.commit.path?.leafNode;
  if (leaf === undefined) return false;
  const { signature } = await supportedSuiteImpl(suite);
  try {
    return await verifyLeafNodeSignature(leaf, commit.content.groupId, leafIndex, signature);
  } catch {
    return false;
  }
}

/** The size of an MLS variable-length vector of `n` bytes: its length prefix (RFC 9420 §2.1.2) and the bytes. */
const vectorSize = (n: number) => (n < 64 ? 1 : n < 16384 ? 2 : 4) + n;

/**
 * What a commit's signature covers and is: the commit's bytes up to the end of its FramedContent
 * (with the MLSMessage header, the FramedContentTBS before its GroupContext) and the signature.
 * The end is counted back from the message's end (signature, confirmation tag, a member's
 * membership tag), so nothing of a large commit is encoded again.
 */
export function signedPart(commit: PublicCommit): { until: number; signature: Uint8Array } {
  const { auth } = commit.message;
  const tail =
    vectorSize(auth.signature.length) +
    ('confirmationTag' in auth ? vectorSize(auth.confirmationTag.length) : 0) +
    (commit.message.senderType === 'member' ? vectorSize(commit.message.membershipTag.length) : 0);
  return { until: commit.bytes.length - tail, signature: auth.signature };
}

const LABEL = new TextEncoder().encode('MLS 1.0 FramedContentTBS');

function lengthPrefix(n: number): Uint8Array {
  if (n < 64) return Uint8Array.of(n);
  if (n < 16384) return Uint8Array.of(0x40 | (n >> 8), n & 0xff);
  return Uint8Array.of(0x80 | (n >>> 24), (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff);
}

/**
 * Whether a commit's signature (see signedPart) is valid: SignWithLabel("FramedContentTBS") by
 * `key`, the sender's signature key, over its content and the GroupContext of its epoch
 * (`context`, encoded as the previous commit's GroupInfo carried it). wire-server does not check
 * this; epoch 0 cannot be checked (no GroupInfo exists before the first commit).
 */
export async function verifyCommitSignature(
  commit: Uint8Array,
  signed: { until: number; signature: Uint8Array },
  context: Uint8Array,
  key: Uint8Array,
  suite: number,
): Promise<boolean> {
  const tbsLength = signed.until + context.length;
  if (signed.until < 0 || signed.until > commit.length) return false;
  const labelPrefix = lengthPrefix(LABEL.length);
  const contentPrefix = lengthPrefix(tbsLength);
  const signContent = new Uint8Array(labelPrefix.length + LABEL.length + contentPrefix.length + tbsLength);
  let at = 0;
  for (const part of [labelPrefix, LABEL, contentPrefix, commit.subarray(0, signed.until), context]) {
    signContent.set(part, at);
    at += part.length;
  }
  const { signature } = await supportedSuiteImpl(suite);
  try {
    return await signature.verify(key, signContent, signed.signature);
  } catch {
    return false;
  }
}
