// A Proteus message in a conversation this backend owns, from a local or a remote sender: checked
// against every member's clients (remote members' as their backends list them now) and fanned out
// by the conversation's object; other backends' recipients get it through on-message-sent.
import type { OtrMessage, OtrRecipient } from '../../../shared/codecs/otr.js';
import { groupBy } from '../../../shared/group-by.js';
import { toBase64 } from '../../../shared/base64.js';
import { userKey } from '../../../shared/proteus/recipients.js';
import type { BotRecipient, ProteusSendResult, QualifiedRef, RemoteClients } from '../../../shared/proteus/types.js';
import { conversationEvent } from '../../events/conversation-events.js';
import { deliverToBots } from '../conversations/bot-deliveries.js';
import { ApiError } from '../../api/errors/api-error.js';
import { forEveryVersion, queueForRemotes } from '../../federation/outbox.js';
import { conversationObject } from '../conversations/conversation-object.js';
import type { UserAccess } from '../../api/access/user-access.js';
import type { Deps } from '../../api/deps.js';
import { notificationTo } from '../../federation/contract.js';
import { onMessageSentRpc } from '../federation/message-sent.js';

export interface OwnedSend {
  conv: QualifiedRef;
  sender: QualifiedRef & { client: string; connection: string };
  message: OtrMessage;
}

/** The clients of remote members, asked of their backends; the users of those that do not answer are unconfirmed. */
async function remoteClients(access: UserAccess, users: readonly QualifiedRef[]): Promise<RemoteClients> {
  const out: RemoteClients = { clients: {}, unconfirmed: [] };
  await Promise.all(
    [...groupBy(users, (u) => u.domain)].map(async ([domain, group]) => {
      const ids = group.map((u) => u.id);
      try {
        const listed = await access.remoteClientIdsOf(domain, ids);
        for (const id of ids) out.clients[userKey(domain, id)] = listed[id] ?? [];
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        out.unconfirmed.push(...ids.map((id) => userKey(domain, id)));
      }
    }),
  );
  return out;
}

/** Sends through the conversation's object; remote recipients' ciphertexts are queued for their backends. */
export async function sendInOwnedConversation(
  d: Deps,
  send: OwnedSend,
): Promise<Exclude<ProteusSendResult, { kind: 'remote-clients-needed' }>> {
  const { env, config, domain } = d;
  const object = conversationObject(env, send.conv);
  const req = { ...send, ttlSeconds: config.gundeck.settings.notificationTTL };
  let result = await object.sendProteus(req, domain);
  if (result.kind === 'remote-clients-needed') {
    const remote = await remoteClients(d.users, result.users);
    result = await object.sendProteus({ ...req, remote }, domain);
  }
  if (result.kind === 'remote-clients-needed') throw new Error('the conversation asked twice for remote clients');
  if (result.kind === 'sent' && result.remote.length > 0)
    await queueForRemotes(env, d.db, messageSentNotifications(send, result.status.time, result.remote));
  if (result.kind === 'sent' && result.bots.length > 0)
    await deliverToBots(env, send.conv, botMessages(send, result), { dropIfGone: true });
  return result;
}

/** One `conversation.otr-message-add` per bot recipient; a bot its service disowns leaves. */
function botMessages(send: OwnedSend, sent: { status: { time: string }; bots: readonly BotRecipient[] }) {
  const blob = send.message.blob === undefined ? {} : { data: toBase64(send.message.blob) };
  return sent.bots.map((r) => ({
    bot: r.user,
    service: r.service,
    event: conversationEvent(
      'conversation.otr-message-add',
      send.conv,
      send.sender,
      { sender: send.sender.client, recipient: r.client, text: toBase64(r.text), ...blob },
      { time: sent.status.time },
    ),
  }));
}

/** on-message-sent for each backend with recipients (wire's RemoteMessage). */
function messageSentNotifications(send: OwnedSend, time: string, remote: readonly OtrRecipient[]) {
  return [...groupBy(remote, (r) => r.domain)].map(([domain, recipients]) => {
    const byUser: Record<string, Record<string, string>> = {};
    for (const r of recipients) (byUser[r.user] ??= {})[r.client] = toBase64(r.text);
    return notificationTo(
      onMessageSentRpc,
      domain,
      forEveryVersion({
        time,
        data: send.message.blob === undefined ? null : toBase64(send.message.blob),
        sender: { id: send.sender.id, domain: send.sender.domain },
        sender_client: send.sender.client,
        conversation: send.conv.id,
        priority: send.message.priority ?? null,
        push: send.message.nativePush,
        transient: send.message.transient,
        recipients: byUser,
      }),
    );
  });
}
