// on-conversation-updated: the owner tells the backends of remote members what changed (queued),
// and those backends change their copy and tell their users.
import { z } from '@hono/zod-openapi';
import { type Config, localDomain } from '../../../shared/config/index.js';
import { commonErrors } from '../../api/errors/common.js';
import { ApiError } from '../../api/errors/api-error.js';
import { qualifiedUserId } from '../../api/schemas/common.js';
import { queuedForRemotes, queueForRemotes } from '../../federation/outbox.js';
import { database, type Db } from '../../db/client.js';
import { type Change, commitChange, joinChanges } from '../../effects/commit-change.js';
import { conversationEvent } from '../../events/conversation-events.js';
import { publishEffect } from '../../events/publish.js';
import { emptyResponse, federationRpc } from '../../federation/rpc.js';
import { groupBy } from '../../../shared/group-by.js';
import type { ConversationRow, MemberRow } from '../conversations/conversation-store.js';
import { conversationBook } from '../conversations/conversation-book.js';
import { memberRow } from '../conversations/member-data.js';
import { membershipChangedEffect } from '../conversations/conversation-object.js';
import { leaveCopy } from './remote-copies.js';
import {
  actionOfEvent,
  type ConversationAction,
  effectOfAction,
  type LocalEffect,
  patchMade,
} from './conversation-actions.js';
import { deps } from '../../api/deps.js';
import { rpcContract, notificationTo, type RemoteNotification } from '../../federation/contract.js';

const action = z.object({ tag: z.string(), action: z.unknown() });
const update = z.object({
  time: z.string(),
  origUserId: qualifiedUserId,
  convId: z.uuid(),
  alreadyPresentUsers: z.array(z.uuid()),
  action,
});
const updateV0 = z.object({
  cuTime: z.string(),
  cuOrigUserId: qualifiedUserId,
  cuConvId: z.uuid(),
  cuAlreadyPresentUsers: z.array(z.uuid()),
  cuAction: action,
});
type Update = z.output<typeof update>;

/** An event of a conversation, as conversationEvent makes it. */
export interface ConversationEvent {
  type: string;
  data: unknown;
  time: string;
  qualified_from: { id: string; domain: string };
}

/** The notifications telling each remote backend with members in the conversation of a change. */
function updateNotifications(
  conv: Pick<ConversationRow, 'domain' | 'id'>,
  members: readonly MemberRow[],
  event: ConversationEvent,
  local: string,
): RemoteNotification[] {
  const act: ConversationAction | undefined = actionOfEvent(event);
  if (act === undefined || conv.domain !== local) return [];
  const remote = members.filter((m) => m.userDomain !== local);
  return [...groupBy(remote, (m) => m.userDomain)].map(([domain, present]) => {
    const u: Update = {
      time: event.time,
      origUserId: event.qualified_from,
      convId: conv.id,
      alreadyPresentUsers: present.map((m) => m.userId),
      action: act,
    };
    const v0 = {
      cuTime: u.time,
      cuOrigUserId: u.origUserId,
      cuConvId: u.convId,
      cuAlreadyPresentUsers: u.alreadyPresentUsers,
      cuAction: u.action,
    };
    return notificationTo(onConversationUpdatedRpc, domain, { 0: v0, 1: u });
  });
}

/** Queues the notifications telling each remote backend with members in the conversation of a change. */
export async function notifyRemoteMembers(
  env: Env,
  config: Config,
  conv: Pick<ConversationRow, 'domain' | 'id'>,
  members: readonly MemberRow[],
  event: ConversationEvent,
): Promise<void> {
  const local = localDomain(config);
  await queueForRemotes(env, database(env.DB), updateNotifications(conv, members, event, local));
}

/** notifyRemoteMembers as part of the change that caused the event (see commitChange). */
export function remoteMembersNotified(
  db: Db,
  config: Config,
  conv: Pick<ConversationRow, 'domain' | 'id'>,
  members: readonly MemberRow[],
  event: ConversationEvent,
): Change {
  return queuedForRemotes(db, updateNotifications(conv, members, event, localDomain(config)));
}

function parseUpdate(body: unknown, version: number): Update {
  if (version === 0) {
    const v0 = updateV0.safeParse(body);
    if (!v0.success) throw new ApiError(commonErrors.badRequest, 'not a ConversationUpdate (v0)');
    const u = v0.data;
    return {
      time: u.cuTime,
      origUserId: u.cuOrigUserId,
      convId: u.cuConvId,
      alreadyPresentUsers: u.cuAlreadyPresentUsers,
      action: u.cuAction,
    };
  }
  const v1 = update.safeParse(body);
  if (!v1.success) throw new ApiError(commonErrors.badRequest, 'not a ConversationUpdate');
  return v1.data;
}

/**
 * What the copy does for an update: its writes, and its local members hearing of it. Undefined
 * when the copy has a patch already: the owner delivers again what got no answer, and the first
 * delivery's pending effects tell the members (see commitChange). Other actions are told again
 * (as wire does): the copy cannot tell a redelivery, since this backend makes its own users' joins
 * and leaves in the copy before the owner announces them.
 */
async function followUpdate(
  env: Env,
  local: string,
  conv: ConversationRow,
  effect: LocalEffect,
  u: Update,
): Promise<Change | undefined> {
  const ref = { id: conv.id, domain: conv.domain };
  let recipients = u.alreadyPresentUsers.map((user) => ({ user }));
  let written: Change;
  switch (effect.kind) {
    case 'patch':
      if (patchMade(conv, effect.patch)) return undefined;
      written = conversationBook.update(env, ref, effect.patch as Partial<ConversationRow>);
      break;
    case 'join': {
      written = conversationBook.addMembers(
        env,
        effect.users.map((user) => memberRow(ref, user, effect.role)),
      );
      const joined = effect.users.filter((user) => user.domain === local).map((user) => ({ user: user.id }));
      recipients = [...recipients, ...joined];
      break;
    }
    case 'leave':
      written = await leaveCopy(env, ref, effect.users, local);
      break;
    case 'member-role':
      written = conversationBook.updateMember(env, ref, effect.target, { role: effect.role });
      break;
    case 'delete':
      written = conversationBook.remove(env, ref, await conversationBook.members(env, ref));
      break;
  }
  const event = conversationEvent(effect.type, ref, u.origUserId, effect.data, { time: u.time });
  const told = publishEffect(dedupe(recipients), event);
  return joinChanges(written, {
    statements: [],
    effects: effect.kind === 'patch' ? [told] : [membershipChangedEffect(ref), told],
  });
}

/** A conversation of another backend changed: the copy here follows, and the local members hear of it. */
const onConversationUpdatedRpc = rpcContract({
  component: 'galley',
  rpc: 'on-conversation-updated',
  request: z.record(z.string(), z.unknown()).openapi('ConversationUpdate'),
  response: emptyResponse,
});

export const onConversationUpdated = federationRpc(
  { ...onConversationUpdatedRpc, description: 'Taken' },
  async (c, body, { origin, version }) => {
    const u = parseUpdate(body, version);
    const config = c.get('config');
    const conv = await conversationBook.get(c.env, { id: u.convId, domain: origin });
    const effect = effectOfAction(u.action as ConversationAction, u.origUserId);
    if (conv === undefined || effect === undefined) return {};
    const change = await followUpdate(c.env, deps(c).domain, conv, effect, u);
    if (change !== undefined) await commitChange(c.env, config, change);
    return {};
  },
);

const dedupe = (rs: Array<{ user: string }>) => [...new Map(rs.map((r) => [r.user, r])).values()];
