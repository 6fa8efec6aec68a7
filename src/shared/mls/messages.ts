import type { FramedContentCommitData, FramedContentData, FramedContentProposalData } from 'ts-mls/framedContent.js';
import { decodeMlsMessage, type MLSMessage } from 'ts-mls/message.js';
import type { PrivateMessage } from 'ts-mls/privateMessage.js';
import type { PublicMessage } from 'ts-mls/publicMessage.js';
import { decodeAt, decodeExactly } from './decoding.js';
import { MlsError, protocolError } from './mls-error.js';

/** The MLSMessage header's size: protocol version (u16) and wire format (u16). */
export const MLS_MESSAGE_HEADER = 4;

/** One MLSMessage of a body: decoded, with its exact bytes (a view into the body). */
interface RawMlsMessage {
  message: MLSMessage;
  bytes: Uint8Array;
}

/** A PublicMessage carrying a commit; `bytes` is the whole MLSMessage, forwarded as is. */
export interface PublicCommit {
  bytes: Uint8Array;
  message: PublicMessage;
  content: FramedContentData & FramedContentCommitData;
}

/** A PublicMessage carrying a proposal; `bytes` is the whole MLSMessage. */
export interface PublicProposal {
  bytes: Uint8Array;
  message: PublicMessage;
  content: FramedContentData & FramedContentProposalData;
}

/** A PrivateMessage; only its header (group, epoch, content type) is readable to the backend. */
export interface PrivateMlsMessage {
  bytes: Uint8Array;
  message: PrivateMessage;
}

/**
 * The MLSMessages of a body sent back to back (a commit bundle). Throws a `mls-protocol-error`
 * when any part of the body does not decode; an empty body holds no message.
 */
export function decodeMessageStream(body: Uint8Array): RawMlsMessage[] {
  const messages: RawMlsMessage[] = [];
  for (let offset = 0; offset < body.length; ) {
    const decoded = decodeAt(decodeMlsMessage, body, offset);
    if (decoded === undefined) throw protocolError(`Malformed MLS message at byte ${offset}`);
    const [message, length] = decoded;
    messages.push({ message, bytes: body.subarray(offset, offset + length) });
    offset += length;
  }
  return messages;
}

/** The commit in a PublicMessage, if that is what it carries. */
export function publicCommit({ message, bytes }: RawMlsMessage): PublicCommit | undefined {
  if (message.wireformat !== 'mls_public_message') return undefined;
  const content = message.publicMessage.content;
  return content.contentType === 'commit' ? { bytes, message: message.publicMessage, content } : undefined;
}

/** The proposal in a PublicMessage, if that is what it carries. */
function publicProposal({ message, bytes }: RawMlsMessage): PublicProposal | undefined {
  if (message.wireformat !== 'mls_public_message') return undefined;
  const content = message.publicMessage.content;
  return content.contentType === 'proposal' ? { bytes, message: message.publicMessage, content } : undefined;
}

/** What `POST /mls/messages` takes: a public proposal or an encrypted application message. */
type PostedMessage =
  | { kind: 'proposal'; proposal: PublicProposal }
  | { kind: 'application'; application: PrivateMlsMessage };

/**
 * Classifies the body of `POST /mls/messages`, which must be exactly one MLSMessage: a
 * PublicMessage proposal or a PrivateMessage application message. Undecodable bytes are a
 * `mls-protocol-error`; commits, public application data, private proposals or commits, Welcomes,
 * GroupInfos and KeyPackages are `mls-unsupported-message`, as in wire-server.
 */
export function classifyPostedMessage(body: Uint8Array): PostedMessage {
  const message = decodeExactly(decodeMlsMessage, body, 'MLS message');
  const raw = { message, bytes: body };
  const proposal = publicProposal(raw);
  if (proposal !== undefined) return { kind: 'proposal', proposal };
  if (message.wireformat === 'mls_private_message' && message.privateMessage.contentType === 'application') {
    return { kind: 'application', application: { bytes: body, message: message.privateMessage } };
  }
  throw new MlsError('mls-unsupported-message', `Unsupported message: ${describe(message)}`);
}

/** A message's kind in a few words, for error messages. */
function describe(message: MLSMessage): string {
  switch (message.wireformat) {
    case 'mls_public_message':
      return `public ${message.publicMessage.content.contentType}`;
    case 'mls_private_message':
      return `private ${message.privateMessage.contentType}`;
    default:
      return message.wireformat.replace(/^mls_/, '').replace('_', ' ');
  }
}
