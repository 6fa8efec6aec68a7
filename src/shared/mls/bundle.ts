import type { Welcome } from 'ts-mls/welcome.js';
import type { GroupInfoPart } from './group-info.js';
import {
  decodeMessageStream,
  MLS_MESSAGE_HEADER,
  type PrivateMlsMessage,
  type PublicCommit,
  publicCommit,
} from './messages.js';
import { protocolError } from './mls-error.js';

/** A Welcome with the bytes of its MLSMessage, which is what `conversation.mls-welcome` carries. */
interface WelcomePart {
  bytes: Uint8Array;
  welcome: Welcome;
}

/** The parts of a commit bundle (`POST /mls/commit-bundles`), each with its bytes. */
export interface CommitBundle {
  /** The commit, forwarded byte for byte to the other members. */
  commit: PublicCommit;
  /** The GroupInfo after the commit; its `bytes` are the inner GroupInfo, to store. */
  groupInfo: GroupInfoPart;
  welcome?: WelcomePart;
  /**
   * A PrivateMessage for the new epoch. wire-server only acts on an application message here and
   * drops any other content type unseen; the caller checks `message.contentType`.
   */
  privateMessage?: PrivateMlsMessage;
}

interface Collected {
  commits: PublicCommit[];
  groupInfos: GroupInfoPart[];
  welcomes: WelcomePart[];
  privateMessages: PrivateMlsMessage[];
}

/** Exactly one of `found`, as wire-server's `checkCommitBundleF` requires. */
function one<T>(found: T[], name: string): T {
  if (found.length === 0) throw protocolError(`Missing ${name}`);
  return optional(found, name)!;
}

/** At most one of `found`. */
function optional<T>(found: T[], name: string): T | undefined {
  if (found.length > 1) throw protocolError(`Redundant occurrence of ${name}`);
  return found[0];
}

/**
 * Splits a commit bundle, the MLSMessages of a body in any order, into exactly one PublicMessage
 * commit, exactly one GroupInfo, at most one Welcome and at most one PrivateMessage. Everything
 * else is a `mls-protocol-error` with wire-server's wording: undecodable bytes, a public proposal
 * ("unexpected proposal"), a KeyPackage ("unexpected message type"), a missing or repeated part.
 */
export function splitCommitBundle(body: Uint8Array): CommitBundle {
  const found: Collected = { commits: [], groupInfos: [], welcomes: [], privateMessages: [] };
  for (const raw of decodeMessageStream(body)) {
    const { message, bytes } = raw;
    switch (message.wireformat) {
      case 'mls_public_message': {
        const commit = publicCommit(raw);
        if (commit === undefined) throw protocolError('unexpected proposal');
        found.commits.push(commit);
        break;
      }
      case 'mls_group_info':
        found.groupInfos.push({ bytes: bytes.subarray(MLS_MESSAGE_HEADER), groupInfo: message.groupInfo });
        break;
      case 'mls_welcome':
        found.welcomes.push({ bytes, welcome: message.welcome });
        break;
      case 'mls_private_message':
        found.privateMessages.push({ bytes, message: message.privateMessage });
        break;
      default:
        throw protocolError('unexpected message type');
    }
  }
  return {
    commit: one(found.commits, 'commit'),
    welcome: optional(found.welcomes, 'welcome'),
    groupInfo: one(found.groupInfos, 'group info'),
    privateMessage: optional(found.privateMessages, 'application message'),
  };
}
