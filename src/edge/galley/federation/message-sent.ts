// on-message-sent: a Proteus message in a conversation another backend owns, for recipients here.
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { NotificationShards } from '../../../objects/notification-shards.js';
import { fromBase64 } from '../../../shared/base64.js';
import type { OtrRecipient } from '../../../shared/codecs/otr.js';
import { otrNotifications } from '../../../shared/proteus/otr-notifications.js';
import { qualifiedUserId } from '../../api/schemas/common.js';
import { emptyResponse, federationRpc } from '../../federation/rpc.js';
import { localUsersOfCopy } from './remote-copies.js';
import { deps } from '../../api/deps.js';
import { rpcContract } from '../../federation/contract.js';

const remoteMessage = z
  .object({
    time: z.string(),
    data: z.string().nullish(),
    sender: qualifiedUserId,
    sender_client: z.string(),
    conversation: z.uuid(),
    transient: z.boolean(),
    push: z.boolean().default(true),
    recipients: z.record(z.string(), z.record(z.string(), z.string())),
  })
  .loose()
  .openapi('RemoteMessage');
type RemoteMessage = z.output<typeof remoteMessage>;

/**
 * Each recipient client that is a member's here gets `conversation.otr-message-add`: messages of
 * one backend, in the order it sent them, with one read of each conversation's members here and
 * one write of all their notifications.
 */
async function deliver(c: Context<AppEnv>, messages: readonly RemoteMessage[], origin: string): Promise<void> {
  const config = c.get('config');
  const local = deps(c).domain;
  const members = new Map<string, Set<string>>();
  const notifications = [];
  for (const m of messages) {
    const conv = { id: m.conversation, domain: origin };
    const here = members.get(m.conversation) ?? (await localUsersOfCopy(c.env, conv, local));
    members.set(m.conversation, here);
    const deliver: OtrRecipient[] = [];
    for (const [user, clients] of Object.entries(m.recipients)) {
      if (!here.has(user)) continue;
      for (const [client, text] of Object.entries(clients)) {
        const bytes = fromBase64(text);
        if (bytes !== undefined) deliver.push({ domain: local, user, client, text: bytes });
      }
    }
    const blob = m.data == null ? undefined : fromBase64(m.data);
    notifications.push(
      ...otrNotifications(deliver, {
        conversationOf: () => conv,
        sender: { ...m.sender, client: m.sender_client, connection: '' },
        blob,
        transient: m.transient,
        nativePush: m.push,
        time: m.time,
        localDomain: local,
        channel: `${conv.domain}/${conv.id}`,
      }),
    );
  }
  await new NotificationShards(c.env).append(notifications, config.gundeck.settings.notificationTTL);
}

export const onMessageSentRpc = rpcContract({
  component: 'galley',
  rpc: 'on-message-sent',
  request: remoteMessage,
  response: emptyResponse,
});

export const onMessageSent = federationRpc(
  { ...onMessageSentRpc, description: 'Taken' },
  async (c, m, { origin }) => {
    await deliver(c, [m], origin);
    return {};
  },
  (c, messages, { origin }) => deliver(c, messages, origin),
);
