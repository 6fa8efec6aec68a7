// The receiving side of MLS groups another backend owns: its Welcomes (mls-welcome) and messages
// (on-mls-message-sent) for clients of this backend, pushed as the events local ones get.
import { z } from '@hono/zod-openapi';
import { conversationEvent } from '../../../shared/events/conversation-event.js';
import { qualifiedUserId } from '../../api/schemas/common.js';
import { publish } from '../../events/publish.js';
import { emptyResponse, federationRpc } from '../../federation/rpc.js';
import { localUsersOfCopy } from './remote-copies.js';
import { deps } from '../../api/deps.js';
import { rpcContract } from '../../federation/contract.js';

const welcomeRequest = z
  .object({
    originating_user: z.uuid(),
    welcome_message: z.base64(),
    recipients: z.array(z.tuple([z.uuid(), z.string()])),
    qualified_conv_id: qualifiedUserId,
  })
  .openapi('MLSWelcomeRequest');
const welcomeResponse = z.union([z.literal('MLSWelcomeSent'), z.literal('MLSWelcomeMLSNotEnabled')]);

/** Groups (user, client) pairs by user. */
function byUser(pairs: ReadonlyArray<readonly [string, string]>) {
  const users = new Map<string, string[]>();
  for (const [user, client] of pairs) users.set(user, [...(users.get(user) ?? []), client]);
  return [...users].map(([user, clients]) => ({ user, clients }));
}

/** A Welcome of a group another backend owns, for clients here: `conversation.mls-welcome`. */
export const mlsWelcomeRpc = rpcContract({
  component: 'galley',
  rpc: 'mls-welcome',
  request: welcomeRequest,
  response: welcomeResponse,
});

export const mlsWelcome = federationRpc(
  { ...mlsWelcomeRpc, description: 'Delivered, or MLS is off here' },
  async (c, w, { origin }) => {
    const config = c.get('config');
    if (!config.brig.optSettings.setEnableMLS) return 'MLSWelcomeMLSNotEnabled' as const;
    const conv = w.qualified_conv_id;
    // Only to users of this backend the owner made members (its announcements come first, in order).
    const here = await localUsersOfCopy(c.env, conv, deps(c).domain);
    const recipients = byUser(w.recipients.filter(([user]) => here.has(user)));
    if (conv.domain !== origin || recipients.length === 0) return 'MLSWelcomeSent' as const;
    const event = conversationEvent(
      'conversation.mls-welcome',
      conv,
      { id: w.originating_user, domain: origin },
      w.welcome_message,
    );
    await publish(c.env, config, recipients, event);
    return 'MLSWelcomeSent' as const;
  },
);

const remoteMlsMessage = z
  .object({
    time: z.string(),
    sender: qualifiedUserId,
    conversation: z.uuid(),
    sub_conversation: z.string().nullish(),
    recipients: z.record(z.uuid(), z.array(z.string()).min(1)),
    message: z.base64(),
  })
  .loose()
  .openapi('RemoteMLSMessage');

/** A message of a group another backend owns: `conversation.mls-message-add` to its clients that are members' here. */
export const onMlsMessageSentRpc = rpcContract({
  component: 'galley',
  rpc: 'on-mls-message-sent',
  request: remoteMlsMessage,
  response: emptyResponse,
});

export const onMlsMessageSent = federationRpc(
  { ...onMlsMessageSentRpc, description: 'Taken' },
  async (c, m, { origin }) => {
    const config = c.get('config');
    const local = deps(c).domain;
    const conv = { id: m.conversation, domain: origin };
    const here = await localUsersOfCopy(c.env, conv, local);
    const recipients = Object.entries(m.recipients)
      .filter(([user]) => here.has(user))
      .map(([user, clients]) => ({ user, clients }));
    const subconv = m.sub_conversation ?? undefined;
    const event = conversationEvent('conversation.mls-message-add', conv, m.sender, m.message, {
      time: m.time,
      subconv,
    });
    const channel = `${conv.domain}/${conv.id}${subconv === undefined ? '' : `/${subconv}`}`;
    if (recipients.length > 0) await publish(c.env, config, recipients, event, { channel });
    return {};
  },
);
