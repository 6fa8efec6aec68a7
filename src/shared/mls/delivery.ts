/**
 * What galley's MLS routes ask of a conversation's object, the group's ordering point, and what it
 * answers: the contract of its MLS RPC methods. Bytes travel as Uint8Array (structured clone).
 */

/** A client, as the group knows it. Client ids are lowercase hex without leading zeros. */
export interface GroupClient {
  user: string;
  domain: string;
  client: string;
}

/** A group as the Conversation object holds it now, for the edge to read (subconversations, GroupInfo). */
export interface GroupView {
  groupId: string | null;
  epoch: number;
  /** When the group moved to its epoch (ms); null before its first commit. */
  epochTimestamp: number | null;
  suite: number | null;
  /** The clients in the group, by leaf index. */
  clients: GroupClient[];
}

/** A client at its leaf of the ratchet tree. */
export interface GroupLeaf extends GroupClient {
  index: number;
}

/** The caller of an MLS route. */
export interface MlsSender extends GroupClient {
  /** Z-Connection: that websocket does not get the caller's own message back. */
  connection: string;
}

/** A commit bundle as the edge read and checked it, for the object to order and apply. */
export interface CommitRequest {
  conv: { id: string; domain: string };
  /** A subconversation's group (conference calls), else the conversation's own. */
  subconv?: string | undefined;
  /** base64, as stored in `conversations.group_id`. */
  groupId: string;
  localDomain: string;
  sender: MlsSender;
  /** The epoch the commit was made in. */
  epoch: number;
  /** The sender's leaf for a member commit; `external` for an external commit (a client joining by itself). */
  senderLeaf: number | 'external';
  /** The ProposalRefs it commits by reference, base64. */
  references: string[];
  /** The leaves it removes inline. */
  removes: number[];
  /** The clients it adds inline (their key packages checked at the edge). */
  adds: GroupClient[];
  /**
   * The commit's adds in the order of its proposal list, which is the order they take the
   * group's leftmost free leaves in (RFC 9420 §12.4.2): an index into `adds` for an inline add,
   * a ProposalRef (of `references`) for one committed by reference.
   */
  addOrder: Array<number | string>;
  /**
   * For an external commit, the leaf its joiner takes: its GroupInfo's signer, at which the edge
   * checked the path leaf's signature. The group must give it exactly that leaf.
   */
  joinerLeaf?: number | undefined;
  /** Whether the commit's path leaf is the caller's: their registered key, their client's credential (false: 403 `mls-identity-mismatch`). */
  pathLeafOfSender: boolean;
  /** Whether the sender's conversation role may remove others (`remove_conversation_member`). */
  mayRemoveOthers: boolean;
  /** The suite of the GroupInfo (the group's suite; the first commit sets it). */
  suite: number;
  commit: Uint8Array;
  /**
   * The commit's signature and what of `commit` it covers (see signedPart), and the sender's
   * registered signature key of the suite (base64; undefined: none), which must have made it.
   */
  signed: { until: number; signature: Uint8Array; key: string | undefined };
  /** The new epoch's GroupContext as its GroupInfo encodes it: the next commit is signed over it. */
  context: Uint8Array;
  /** The inner GroupInfo, stored for `GET …/groupinfo` and external joins. */
  groupInfo: Uint8Array;
  /** The Welcome's whole MLSMessage, for the added clients. */
  welcome?: Uint8Array | undefined;
  /** An application message of the new epoch sent along (PrivateMessage MLSMessage). */
  application?: Uint8Array | undefined;
  ttlSeconds: number;
  /**
   * Set when the group reaches other backends: the edge's record of what to tell them, which the
   * object records with the commit's writes (MLS_REMOTE_EFFECT), so that no crash loses it.
   */
  remoteRecord?: unknown;
}

/**
 * Clients of other backends a message is for, which their backends deliver (the edge queues it):
 * the commit, the Welcome, the application message sent with a commit, or a posted message.
 */
export interface RemoteMlsDelivery {
  what: 'commit' | 'welcome' | 'application' | 'message' | 'proposal';
  clients: GroupClient[];
  /** A proposal of the backend's own (a removal): its bytes, base64, and the user whose leaf it removes. */
  proposal?: { message: string; of: { user: string; domain: string } };
}

/** The backend's removal proposals in one group, for the clients of other backends. */
export interface RemovalsSent {
  subconv?: string | undefined;
  time: string;
  remote: RemoteMlsDelivery[];
}

/** What a proposal does to the group, as far as the delivery service cares. */
export type ProposalEffect = { remove: number } | { add: GroupClient } | { other: string };

/** A message posted to `/mls/messages`, read at the edge, for the object to check against the group. */
export interface MessageRequest {
  conv: { id: string; domain: string };
  subconv?: string | undefined;
  groupId: string;
  localDomain: string;
  sender: MlsSender;
  epoch: number;
  /** The MLSMessage, forwarded as it came. */
  message: Uint8Array;
  /** An application message (PrivateMessage), or a proposal (PublicMessage) with its ref and effect. */
  proposal?: { ref: string; effect: ProposalEffect } | undefined;
  /** Users who do not get it: in an MLS 1:1, the other user when they blocked the sender. */
  skipUsers?: Array<{ user: string; domain: string }> | undefined;
  ttlSeconds: number;
}

/**
 * Users who left a conversation (all their clients) or clients that were deleted: the backend
 * proposes their removal from the conversation's MLS group, signed with its removal key.
 */
export interface Leaving {
  conv: { id: string; domain: string };
  targets: Array<{ user: string; domain: string; client?: string | undefined }>;
  localDomain: string;
  ttlSeconds: number;
}

/** A group's reset (`POST /mls/reset-conversation`, `DELETE …/subconversations/{id}`): its current group id and epoch. */
export interface ResetRequest {
  conv: { id: string; domain: string };
  subconv?: string | undefined;
  groupId: string;
  epoch: number;
  by: { user: string; domain: string };
  localDomain: string;
  ttlSeconds: number;
}

/** The MLS errors a commit or message can end in, by catalogue name (src/edge/api/errors/mls.ts). */
export type MlsRefusal =
  | 'mlsProtocolError'
  | 'mlsStaleMessage'
  | 'mlsProposalNotFound'
  | 'mlsCommitMissingReferences'
  | 'mlsClientMismatch'
  | 'mlsSelfRemovalNotAllowed'
  | 'mlsInvalidLeafNodeIndex'
  | 'mlsClientSenderUserMismatch'
  | 'mlsUnsupportedMessage'
  | 'mlsIdentityMismatch'
  | 'noConversation'
  | 'actionDenied';

/**
 * The events a commit caused (member-join, member-leave) as a JSON array, the response's `events`:
 * text, because RPC types cannot carry JSON values of unknown shape.
 */
export type DeliveryResult =
  | {
      ok: true;
      eventsJson: string;
      time: string;
      remote?: RemoteMlsDelivery[] | undefined;
      /**
       * The pending effects recorded with the commit, for the edge to carry out: telling other
       * backends (given `remoteRecord`) and the members' lists of their conversations. Their row's
       * id and the effects as a JSON array.
       */
      recorded?: { id: number; effectsJson: string } | undefined;
    }
  | { ok: false; refusal: MlsRefusal; message?: string | undefined };
