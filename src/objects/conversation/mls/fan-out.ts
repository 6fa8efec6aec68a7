import { toBase64 } from '../../../shared/base64.js';
import { conversationEvent } from '../../../shared/events/conversation-event.js';
import type { GroupClient, MlsSender, RemoteMlsDelivery } from '../../../shared/mls/delivery.js';
import { sameForAll } from '../../../shared/notifications/deliveries.js';
import type { Delivery } from '../../../shared/notifications/types.js';
import type { QualifiedRef } from '../../../shared/proteus/types.js';

interface MlsFanOut {
  conv: QualifiedRef;
  /** Messages of a subconversation say so (a Welcome names the parent alone). */
  subconv?: string | undefined;
  sender: MlsSender;
  localDomain: string;
  time: string;
}

/** The log of the conversation's (or subconversation's) messages: see Delivery. */
const channelOf = (o: Pick<MlsFanOut, 'conv' | 'subconv'>) =>
  `${o.conv.domain}/${o.conv.id}${o.subconv === undefined ? '' : `/${o.subconv}`}`;

/**
 * One notification per local user, targeted at their clients among `to`: an MLSMessage event
 * (`conversation.mls-message-add` or `conversation.mls-welcome`) with the message in base64, its
 * text written once for all. The sending client never gets its own message; its user's other
 * clients do. A Welcome is for the few clients it adds, stored for each of them alone.
 */
export function mlsNotifications(
  type: 'conversation.mls-message-add' | 'conversation.mls-welcome',
  message: Uint8Array,
  to: readonly GroupClient[],
  o: MlsFanOut,
): Delivery[] {
  const event = mlsEvent(type, message, o);
  const byUser = new Map<string, string[]>();
  for (const c of to) {
    if (c.domain !== o.localDomain) continue; // remote members: their backends (remoteDelivery)
    if (c.user === o.sender.user && c.domain === o.sender.domain && c.client === o.sender.client) continue;
    const clients = byUser.get(c.user);
    if (clients === undefined) byUser.set(c.user, [c.client]);
    else clients.push(c.client);
  }
  if (byUser.size === 0) return [];
  return [
    sameForAll(
      JSON.stringify([event]),
      Array.from(byUser, ([user, clients]) => ({ user, clients })),
      {
        channel: type === 'conversation.mls-message-add' ? channelOf(o) : undefined,
        origin: { user: o.sender.user, connection: o.sender.connection },
      },
    ),
  ];
}

/** The event around an MLS message (`conversation.mls-message-add` or `conversation.mls-welcome`), the message in base64. */
function mlsEvent(
  type: 'conversation.mls-message-add' | 'conversation.mls-welcome',
  message: Uint8Array,
  o: MlsFanOut,
) {
  return conversationEvent(type, o.conv, { id: o.sender.user, domain: o.sender.domain }, toBase64(message), {
    time: o.time,
    subconv: type === 'conversation.mls-message-add' ? o.subconv : undefined,
  });
}

/**
 * A message to the group's clients, without them: GroupRoster addresses it to the roster each
 * notification object keeps (see RosterAddress).
 */
export function mlsGroupMessage(message: Uint8Array, o: MlsFanOut): Delivery {
  return {
    channel: channelOf(o),
    head: JSON.stringify([mlsEvent('conversation.mls-message-add', message, o)]),
    tail: '',
    to: [],
    origin: { user: o.sender.user, connection: o.sender.connection },
  };
}

/**
 * A conversation event (member-join, member-leave) to every one of these local users; not to the
 * connection whose request caused it (`origin`), as wire-server leaves it out.
 */
export function toUsers(
  event: Record<string, unknown>,
  users: Iterable<string>,
  conv: MlsFanOut['conv'],
  origin?: MlsSender,
): Delivery[] {
  const recipients = [...new Set(users)].map((user) => ({ user }));
  if (recipients.length === 0) return [];
  const from = origin === undefined ? {} : { origin: { user: origin.user, connection: origin.connection } };
  return [sameForAll(JSON.stringify([event]), recipients, { channel: channelOf({ conv }), ...from })];
}

/** The clients of other backends among `to` (the sending client left out), when there are any. */
export function remoteDelivery(
  what: RemoteMlsDelivery['what'],
  to: readonly GroupClient[],
  o: Pick<MlsFanOut, 'sender' | 'localDomain'>,
): RemoteMlsDelivery[] {
  const isSender = (c: GroupClient) =>
    c.user === o.sender.user && c.domain === o.sender.domain && c.client === o.sender.client;
  const clients = to
    .filter((c) => c.domain !== o.localDomain && !isSender(c))
    .map((c) => ({ user: c.user, domain: c.domain, client: c.client }));
  return clients.length === 0 ? [] : [{ what, clients }];
}
