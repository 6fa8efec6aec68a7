import type { OtrMessage } from '../codecs/otr.js';

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

export interface ProteusSend {
  conv: QualifiedRef;
  sender: QualifiedRef & { client: string; connection: string };
  message: OtrMessage;
  ttlSeconds: number;
}

export type ProteusSendResult =
  | { kind: 'sent'; status: MessageSendingStatus }
  | { kind: 'missing-clients'; status: MessageSendingStatus }
  | { kind: 'no-conversation' }
  | { kind: 'unknown-client' };
