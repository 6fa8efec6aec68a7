// The owner's side of MLS groups with clients on other backends: after the conversation's object
// applied a commit or took a message, the other backends are told (queued, in order): new members'
// backends get the conversation (on-conversation-created), every member's backend hears of joins
// and leaves (on-conversation-updated), then Welcomes go out (mls-welcome) and messages
// (on-mls-message-sent).
import { type Config, localDomain } from '../../../shared/config/index.js';
import { fromBase64, toBase64 } from '../../../shared/base64.js';
import { MLS_REMOTE_EFFECT, type MlsRemoteArgs } from '../../../shared/effects/mls-remote-effect.js';
import type { RemoteMlsDelivery } from '../../../shared/mls/delivery.js';
import { defineEffect } from '../../effects/effect.js';
import { forEveryVersion, queueForRemotes, unreachableAmong } from '../../federation/outbox.js';
import type { QualifiedId } from '../../api/schemas/common.js';
import { database } from '../../db/client.js';
import type { MemberRow } from '../conversations/conversation-store.js';
import { conversationBook } from '../conversations/conversation-book.js';
import { conversationCreatedPayload, onConversationCreatedRpc } from './conversation-created.js';
import { type ConversationEvent, notifyRemoteMembers } from './conversation-updated.js';
import { deliveryNotifications, type MlsSent } from './mls-deliveries.js';
import { notificationTo } from '../../federation/contract.js';

/**
 * Tells other backends what a commit or message did. `before` are the conversation's members
 * before it, `events` the member-join / member-leave events the commit caused. As wire-server's
 * owner does, a join is told to the backends of everybody in the conversation after it, the added
 * users' included (they get `conversation.member-join`), a leave to those of everybody before it.
 */
export async function tellRemotesOfMls(
  env: Env,
  config: Config,
  sent: MlsSent,
  before: readonly MemberRow[],
  events: readonly ConversationEvent[],
): Promise<void> {
  const local = localDomain(config);
  const db = database(env.DB);
  // The members are read again only after a 1:1's first commit (which stored them) or a commit
  // adding users of other backends: local groups, the common case, cost nothing more.
  const reread = events.length > 0 && (before.length === 0 || events.some((e) => joinsRemoteUsers(e, local)));
  const after = reread ? await conversationBook.members(env, sent.conv) : before;
  const known = new Set([local, ...before.map((m) => m.userDomain)]);
  const fresh = [...new Set(after.map((m) => m.userDomain))].filter((d) => !known.has(d));
  const row = fresh.length > 0 ? await conversationBook.get(env, sent.conv) : undefined;
  if (row !== undefined) {
    const created = forEveryVersion(conversationCreatedPayload(row, after));
    await queueForRemotes(
      env,
      db,
      fresh.map((domain) => notificationTo(onConversationCreatedRpc, domain, created)),
    );
  }
  for (const event of events)
    await notifyRemoteMembers(env, config, sent.conv, event.type === JOIN ? after : before, event);
  await queueForRemotes(env, db, deliveryNotifications(sent));
}

/** The users a message is for whose backend is not taking notifications now (`failed_to_send`): theirs wait in the queue. */
export async function unreachableRecipients(env: Env, remote: readonly RemoteMlsDelivery[]): Promise<QualifiedId[]> {
  const recipients = remote.flatMap((d) => d.clients);
  if (recipients.length === 0) return [];
  const down = await unreachableAmong(database(env.DB), [...new Set(recipients.map((r) => r.domain))]);
  const users = new Map(recipients.filter((r) => down.has(r.domain)).map((r) => [`${r.domain}/${r.user}`, r]));
  return [...users.values()].map((r) => ({ id: r.user, domain: r.domain }));
}

/** What the edge records of a commit for telling other backends: MlsSent without what the commit caused, JSON. */
interface MlsTold {
  conv: { id: string; domain: string };
  subconv?: string | undefined;
  sender: { id: string; domain: string };
  before: MemberRow[];
  bytes: Partial<Record<keyof MlsSent['bytes'], string>>;
}

/** The record a commit request carries when its group reaches other backends (CommitRequest.remoteRecord). */
export function mlsTold(sent: Omit<MlsSent, 'time' | 'remote'>, before: readonly MemberRow[]): MlsTold {
  const bytes = Object.fromEntries(
    Object.entries(sent.bytes).flatMap(([k, v]) => (v === undefined ? [] : [[k, toBase64(v)]])),
  );
  return {
    conv: { id: sent.conv.id, domain: sent.conv.domain },
    subconv: sent.subconv,
    sender: sent.sender,
    before: [...before],
    bytes,
  };
}

/** Tells other backends of a commit the conversation's object recorded with its writes (see mlsTold). */
defineEffect(MLS_REMOTE_EFFECT, async ({ env, config }, a: MlsRemoteArgs) => {
  const told = a.told as MlsTold;
  const bytes = Object.fromEntries(Object.entries(told.bytes).map(([k, v]) => [k, fromBase64(v ?? '')]));
  const sent = { ...told, time: a.time, remote: a.remote, bytes };
  await tellRemotesOfMls(env, config, sent, told.before, JSON.parse(a.eventsJson) as ConversationEvent[]);
});

const JOIN = 'conversation.member-join';

/** Whether the event is a join naming a user of another backend than `local`. */
function joinsRemoteUsers(event: ConversationEvent, local: string): boolean {
  if (event.type !== JOIN) return false;
  const users = (event.data as { users?: Array<{ qualified_id?: QualifiedId }> } | null)?.users ?? [];
  return users.some((u) => u.qualified_id !== undefined && u.qualified_id.domain !== local);
}
