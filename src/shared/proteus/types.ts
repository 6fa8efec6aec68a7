import type { OtrMessage, OtrRecipient } from '../codecs/otr.js';

export interface QualifiedRef {
  id: string;
  domain: string;
}

/** `{domain: {user: [client]}}`, as MessageSendingStatus writes its maps. */
export type ClientMap = Record<string, Record<string, string[]>>;

export interface MessageSendingStatus {
  time: string;
  missing: ClientMap;
  redundant: ClientMap;
  deleted: ClientMap;
  failed_to_send: ClientMap;
  failed_to_confirm_clients: ClientMap;
}

/**
 * The clients of a conversation's remote members, as their backends listed them for one message:
 * `domain/user` → client ids; `unconfirmed`: users whose backend could not be asked.
 */
export interface RemoteClients {
  clients: Record<string, string[]>;
  unconfirmed: string[];
}

export interface ProteusSend {
  conv: QualifiedRef;
  sender: QualifiedRef & { client: string; connection: string };
  message: OtrMessage;
  ttlSeconds: number;
  /** Needed when the conversation has remote members (the object answers `remote-clients-needed`). */
  remote?: RemoteClients;
}

/** A ciphertext for a bot member: its service gets it, not a notification stream. */
export interface BotRecipient extends OtrRecipient {
  service: { id: string; provider: string };
}

export type ProteusSendResult =
  /**
   * `remote`: the ciphertexts for other backends' users, `bots`: those for bot members, for the
   * caller to send on.
   */
  | { kind: 'sent'; status: MessageSendingStatus; remote: OtrRecipient[]; bots: BotRecipient[] }
  | { kind: 'remote-clients-needed'; users: QualifiedRef[] }
  | { kind: 'missing-clients'; status: MessageSendingStatus }
  | { kind: 'no-conversation' }
  | { kind: 'unknown-client' }
  /** Someone here is under legal hold and someone has not consented to it. */
  | { kind: 'missing-legalhold-consent' };
