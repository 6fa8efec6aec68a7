/** The messages the page decrypted (protobuf GenericMessages), and the assets they point to. */
import type { QualifiedId } from '@wireapp/api-client/lib/user/index.js';
import { GenericMessage } from '@wireapp/protocol-messaging';
import type { Waits } from './waits.js';

/** A message the page decrypted. */
export interface ReceivedMessage {
  via: 'proteus' | 'mls';
  conversation: QualifiedId;
  from: QualifiedId;
  messageId: string;
  text?: string;
  asset?: { mimeType: string; size: number; width?: number; height?: number };
}

/** Where a received asset is stored, and how to check and decrypt it. */
export interface RemoteAsset {
  assetId: string;
  assetToken?: string;
  assetDomain: string;
  otrKey: Uint8Array;
  sha256: Uint8Array;
  mimeType: string;
}

export class Inbox {
  private readonly received: ReceivedMessage[] = [];
  /** By the id of the message that carried them. */
  private readonly assets = new Map<string, RemoteAsset>();

  constructor(private readonly waits: Waits) {}

  receive(via: ReceivedMessage['via'], conversation: QualifiedId, from: QualifiedId, plain: Uint8Array): void {
    const m = GenericMessage.decode(plain);
    const entry: ReceivedMessage = { via, conversation, from, messageId: m.messageId };
    if (m.text) entry.text = m.text.content;
    const uploaded = m.asset?.uploaded;
    const original = m.asset?.original;
    if (uploaded?.assetId && uploaded.assetDomain && original) {
      entry.asset = {
        mimeType: original.mimeType,
        size: Number(original.size),
        width: original.image?.width,
        height: original.image?.height,
      };
      this.assets.set(m.messageId, {
        assetId: uploaded.assetId,
        assetToken: uploaded.assetToken ?? undefined,
        assetDomain: uploaded.assetDomain,
        otrKey: uploaded.otrKey,
        sha256: uploaded.sha256,
        mimeType: original.mimeType,
      });
    }
    this.received.push(entry);
  }

  /** Waits for a decrypted message matching `want`. */
  message(
    want: Partial<Pick<ReceivedMessage, 'via' | 'text' | 'messageId'>> & { conversation?: string },
  ): Promise<ReceivedMessage> {
    return this.waits.until(
      () =>
        this.received.find(
          (m) =>
            (want.via === undefined || m.via === want.via) &&
            (want.text === undefined || m.text === want.text) &&
            (want.messageId === undefined || m.messageId === want.messageId) &&
            (want.conversation === undefined || m.conversation.id === want.conversation),
        ),
      `message ${JSON.stringify(want)}`,
    );
  }

  /** The asset a received message carried. */
  asset(messageId: string): RemoteAsset | undefined {
    return this.assets.get(messageId);
  }
}
