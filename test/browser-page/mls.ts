/** MLS groups: created with the backend's removal key, joined by Welcome, messages encrypted by core-crypto. */
import type { QualifiedId } from '@wireapp/api-client/lib/user/index.js';
import { GenericMessage } from '@wireapp/protocol-messaging';
import type { PageContext } from './context.js';
import { fromBase64, signatureOf } from './crypto.js';
import type { Inbox } from './inbox.js';
import type { WireEvent } from './notifications.js';

export class MlsGroups {
  /** The group id of each conversation whose group this client is in. */
  private readonly groups = new Map<string, Uint8Array>();

  constructor(
    private readonly ctx: PageContext,
    private readonly inbox: Inbox,
  ) {}

  /**
   * A new MLS group conversation: created empty (`POST /conversations`, protocol mls), the group
   * made with the backend's removal key as external sender, then one commit adding every client
   * of `member` from claimed key packages (its Welcome goes out with the commit bundle).
   */
  async create(name: string, member: QualifiedId): Promise<QualifiedId> {
    const { api } = this.ctx;
    const conv = (await api.api.conversation.postConversation({
      name,
      protocol: 'mls',
      qualified_users: [],
    } as never)) as unknown as { qualified_id: QualifiedId; group_id: string };
    const groupId = fromBase64(conv.group_id);
    const signature = signatureOf(this.ctx.suite);
    const keys = (await api.api.client.getPublicKeys()) as unknown as { removal: Record<string, string> };
    const removal = keys.removal[signature.name];
    if (removal === undefined) throw new Error(`the backend has no ${signature.name} removal key`);
    await this.ctx.deviceCrypto.createGroup(groupId, fromBase64(removal), signature.scheme);
    this.groups.set(conv.qualified_id.id, groupId);
    const claimed = (await api.api.client.claimMLSKeyPackages(
      member.id,
      member.domain,
      `0x${this.ctx.suite.toString(16).padStart(4, '0')}`,
    )) as unknown as { key_packages: Array<{ key_package: string }> };
    await this.ctx.deviceCrypto.addToGroup(
      groupId,
      claimed.key_packages.map((k) => fromBase64(k.key_package)),
    );
    return conv.qualified_id;
  }

  /** Waits until this client joined the group of a conversation (by its Welcome). */
  joined(conversation: QualifiedId): Promise<true> {
    return this.ctx.waits.until(
      () => (this.groups.has(conversation.id) ? true : undefined),
      `welcome to ${conversation.id}`,
    );
  }

  async send(conversation: QualifiedId, text: string): Promise<string> {
    const groupId = this.groups.get(conversation.id);
    if (groupId === undefined) throw new Error(`not in the group of ${conversation.id}`);
    const messageId = crypto.randomUUID();
    const plain = GenericMessage.encode(GenericMessage.create({ messageId, text: { content: text } })).finish();
    await this.ctx.api.api.conversation.postMlsMessage(await this.ctx.deviceCrypto.mlsEncrypt(groupId, plain));
    return messageId;
  }

  /** A `conversation.mls-welcome`: this client joins the group. */
  async join(event: WireEvent): Promise<void> {
    const conversation = event.qualified_conversation as QualifiedId;
    const groupId = await this.ctx.deviceCrypto.joinByWelcome(fromBase64(event.data as string));
    this.groups.set(conversation.id, groupId);
  }

  /** A `conversation.mls-message-add`: an application message is decrypted into the inbox. */
  async receive(event: WireEvent): Promise<void> {
    const conversation = event.qualified_conversation as QualifiedId;
    const groupId = this.groups.get(conversation.id);
    if (groupId === undefined) return;
    const decrypted = await this.ctx.deviceCrypto.mlsDecrypt(groupId, fromBase64(event.data as string));
    if (decrypted.kind === 'application')
      this.inbox.receive('mls', conversation, event.qualified_from as QualifiedId, decrypted.plaintext);
  }
}
