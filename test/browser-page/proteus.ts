/** Proteus messages: GenericMessages encrypted by core-crypto for each client, sent and received. */
import type { QualifiedId } from '@wireapp/api-client/lib/user/index.js';
import { GenericMessage } from '@wireapp/protocol-messaging';
import Long from 'long';
import type { PageContext } from './context.js';
import { fromBase64, type PreKey, sessionId } from './crypto.js';
import type { Inbox } from './inbox.js';
import type { WireEvent } from './notifications.js';

const uuidBytes = (id: string) => Uint8Array.from(id.replace(/-/g, '').match(/../g)!, (h) => Number.parseInt(h, 16));

/**
 * Sends a GenericMessage to every other client of the conversation's members (sessions from
 * claimed prekeys where there are none), as `QualifiedNewOtrMessage` protobuf.
 */
export async function sendProteus(ctx: PageContext, conversation: QualifiedId, message: GenericMessage): Promise<void> {
  const { api } = ctx;
  const plain = GenericMessage.encode(message).finish();
  const conv = (await api.api.conversation.getConversation(conversation)) as unknown as {
    members: { others: Array<{ qualified_id: QualifiedId }> };
  };
  const users = [ctx.me, ...conv.members.others.map((o) => o.qualified_id)];
  const listed = (await api.api.user.postListClients({ qualified_users: users })) as unknown as {
    qualified_user_map: Record<string, Record<string, Array<{ id: string }>>>;
  };
  const targets: Array<{ user: QualifiedId; client: string; session: string }> = [];
  for (const [domain, byUser] of Object.entries(listed.qualified_user_map))
    for (const [id, clients] of Object.entries(byUser))
      for (const { id: client } of clients) {
        if (id === ctx.me.id && client === ctx.client) continue;
        targets.push({ user: { id, domain }, client, session: sessionId({ id, domain }, client) });
      }

  const prekeys: Record<string, PreKey> = {};
  const wanted: Record<string, Record<string, string[]>> = {};
  for (const t of targets)
    if (!(await ctx.deviceCrypto.hasSession(t.session))) {
      const byUser = (wanted[t.user.domain] ??= {});
      (byUser[t.user.id] ??= []).push(t.client);
    }
  if (Object.keys(wanted).length > 0) {
    const bundles = await api.api.user.postMultiPreKeyBundles(wanted);
    for (const t of targets) {
      const prekey = bundles.qualified_user_client_prekeys[t.user.domain]?.[t.user.id]?.[t.client];
      if (prekey) prekeys[t.session] = prekey as PreKey;
    }
  }
  const encrypted = await ctx.deviceCrypto.proteusEncrypt(
    plain,
    targets.map((t) => t.session),
    prekeys,
  );

  const byDomain = new Map<string, Map<string, Array<{ client: { client: Long }; text: Uint8Array }>>>();
  for (const t of targets) {
    const users = byDomain.get(t.user.domain) ?? new Map();
    byDomain.set(t.user.domain, users);
    const clients = users.get(t.user.id) ?? [];
    users.set(t.user.id, clients);
    clients.push({ client: { client: Long.fromString(t.client, true, 16) }, text: encrypted.get(t.session)! });
  }
  const otr = {
    sender: { client: Long.fromString(ctx.myClient, true, 16) },
    recipients: [...byDomain].map(([domain, users]) => ({
      domain,
      entries: [...users].map(([id, clients]) => ({ user: { uuid: uuidBytes(id) }, clients })),
    })),
    reportAll: {},
  };
  await api.api.conversation.postOTRMessage(conversation.id, conversation.domain, otr as never);
}

export async function sendText(ctx: PageContext, conversation: QualifiedId, text: string): Promise<string> {
  const messageId = crypto.randomUUID();
  await sendProteus(ctx, conversation, GenericMessage.create({ messageId, text: { content: text } }));
  return messageId;
}

/** A `conversation.otr-message-add`: decrypted into the inbox when it is for this client. */
export async function receiveProteus(ctx: PageContext, inbox: Inbox, event: WireEvent): Promise<void> {
  const from = event.qualified_from as QualifiedId;
  const data = event.data as { sender: string; recipient: string; text: string };
  if (data.recipient !== ctx.client) return;
  const plain = await ctx.deviceCrypto.proteusDecrypt(sessionId(from, data.sender), fromBase64(data.text));
  inbox.receive('proteus', event.qualified_conversation as QualifiedId, from, plain);
}
