// What the conversation's object left for the clients of other backends (commits, Welcomes,
// messages, the backend's removal proposals), as the notifications that carry it to them; and
// on-client-removed, telling the owners of conversations that a member's client is gone.
import { fromBase64, toBase64 } from '../../../shared/base64.js';
import { type Config, localDomain } from '../../../shared/config/index.js';
import { groupBy } from '../../../shared/group-by.js';
import type { GroupClient, RemoteMlsDelivery, RemovalsSent } from '../../../shared/mls/delivery.js';
import { forEveryVersion, queueForRemotes } from '../../federation/outbox.js';
import { database } from '../../db/client.js';
import type { ConversationRow } from '../conversations/conversation-store.js';
import { notificationTo, type RemoteNotification, rpcContract } from '../../federation/contract.js';
import { emptyResponse } from '../../federation/rpc.js';
import { z } from '@hono/zod-openapi';
import { mlsWelcomeRpc, onMlsMessageSentRpc } from './mls-received.js';

/** The bytes the object's remote deliveries refer to. */
type MlsBytes = Partial<Record<Exclude<RemoteMlsDelivery['what'], 'proposal'>, Uint8Array>>;

export interface MlsSent {
  conv: Pick<ConversationRow, 'domain' | 'id'>;
  subconv?: string | undefined;
  sender: { id: string; domain: string };
  time: string;
  remote: readonly RemoteMlsDelivery[];
  bytes: MlsBytes;
}

function recipientsByUser(clients: readonly GroupClient[]): Record<string, string[]> {
  const byUser: Record<string, string[]> = {};
  for (const c of clients) (byUser[c.user] ??= []).push(c.client);
  return byUser;
}

/** The notification of a client gone, to the owners of its user's conversations (answered in client-removed.ts). */
const clientRemoved = z
  .object({ user: z.uuid(), client: z.string().min(1), convs: z.array(z.uuid()) })
  .openapi('ClientRemovedRequest');

export const onClientRemovedRpc = rpcContract({
  component: 'galley',
  rpc: 'on-client-removed',
  request: clientRemoved,
  response: emptyResponse,
});

export function deliveryNotifications(s: MlsSent): RemoteNotification[] {
  const out: RemoteNotification[] = [];
  for (const d of s.remote) {
    const bytes = d.proposal === undefined ? s.bytes[d.what as keyof MlsBytes] : fromBase64(d.proposal.message);
    if (bytes === undefined) continue;
    const sender = d.proposal === undefined ? s.sender : { id: d.proposal.of.user, domain: d.proposal.of.domain };
    for (const [domain, clients] of groupBy(d.clients, (c) => c.domain)) {
      if (d.what === 'welcome') {
        const welcome = {
          originating_user: s.sender.id,
          welcome_message: toBase64(bytes),
          recipients: clients.map((c): [string, string] => [c.user, c.client]),
          qualified_conv_id: { id: s.conv.id, domain: s.conv.domain },
        };
        out.push(notificationTo(mlsWelcomeRpc, domain, forEveryVersion(welcome)));
        continue;
      }
      const message = {
        time: s.time,
        metadata: { native_push: true, transient: false },
        sender,
        conversation: s.conv.id,
        sub_conversation: s.subconv ?? null,
        recipients: recipientsByUser(clients),
        message: toBase64(bytes),
      };
      out.push(notificationTo(onMlsMessageSentRpc, domain, forEveryVersion(message)));
    }
  }
  return out;
}

/** Queues the backend's removal proposals for the clients of other backends in each group. */
export async function queueRemovals(
  env: Env,
  config: Config,
  conv: Pick<ConversationRow, 'domain' | 'id'>,
  sent: readonly RemovalsSent[],
): Promise<void> {
  const local = { id: '', domain: localDomain(config) }; // each proposal names its own sender
  const notifications = sent.flatMap((s) =>
    deliveryNotifications({ conv, subconv: s.subconv, sender: local, time: s.time, remote: s.remote, bytes: {} }),
  );
  if (notifications.length > 0) await queueForRemotes(env, database(env.DB), notifications);
}

/**
 * A local user's client is gone: the owners of the conversations of other backends the user is in
 * propose its removal from their groups (on-client-removed, once per owner).
 */
export async function queueClientRemoved(
  env: Env,
  user: string,
  client: string,
  convs: readonly { id: string; domain: string }[],
): Promise<void> {
  const notifications = [...groupBy(convs, (c) => c.domain)].map(([domain, owned]) =>
    notificationTo(onClientRemovedRpc, domain, forEveryVersion({ user, client, convs: owned.map((c) => c.id) })),
  );
  if (notifications.length > 0) await queueForRemotes(env, database(env.DB), notifications);
}
