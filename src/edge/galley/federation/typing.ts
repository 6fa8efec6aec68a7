// Typing indicators across backends: transient, so never queued. The owner of a conversation
// pushes a member's typing to its local members and tells the other members' backends at once
// (on-typing-indicator-updated); a remote member's typing reaches the owner through
// update-typing-indicator.
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { type Config, localDomain } from '../../../shared/config/index.js';
import { groupBy } from '../../../shared/group-by.js';
import type { AppEnv } from '../../api/app-env.js';
import { ApiError } from '../../api/errors/api-error.js';
import { galleyErrors } from '../../api/errors/galley.js';
import { type QualifiedId, qualifiedUserId } from '../../api/schemas/common.js';
import { selfQualified } from '../../api/self.js';
import { conversationEvent } from '../../events/conversation-events.js';
import { publish } from '../../events/publish.js';
import { FederatorClient } from '../../federation/client.js';
import { emptyResponse, federationRpc, taggedAnswer } from '../../federation/rpc.js';
import { loadMembershipOf } from '../conversations/access-check.js';
import type { MemberRow } from '../conversations/conversation-store.js';
import { errorOfGalleyTag } from './galley-error-tags.js';
import { localUsersOfCopy } from './remote-copies.js';
import { deps } from '../../api/deps.js';
import { rpcContract } from '../../federation/contract.js';

const status = z.enum(['started', 'stopped']);
type Status = z.output<typeof status>;
const typingUpdated = z
  .object({
    time: z.string(),
    orig_user_id: qualifiedUserId,
    conv_id: z.uuid(),
    users_in_conv: z.array(z.uuid()),
    typing_status: status,
  })
  .openapi('TypingDataUpdated');
const updateRequest = z
  .object({ typing_status: status, user_id: z.uuid(), conv_id: z.uuid() })
  .openapi('TypingDataUpdateRequest');
const updateResponse = taggedAnswer('TypingDataUpdateResponse');

/** `conversation.typing` to these local users, the typing user left out; pushed, never stored. */
function pushTyping(
  env: Env,
  config: Config,
  conv: QualifiedId,
  from: QualifiedId,
  s: Status,
  users: string[],
  time?: string,
) {
  const ev = conversationEvent('conversation.typing', conv, from, { status: s }, time === undefined ? {} : { time });
  const local = localDomain(config);
  const recipients = users.filter((u) => !(u === from.id && from.domain === local)).map((user) => ({ user }));
  return publish(env, config, recipients, ev, { transient: true });
}

/** A member of a conversation owned here types: its local members hear it, other backends are told. */
export async function typingInOwned(
  env: Env,
  config: Config,
  conv: QualifiedId,
  members: readonly MemberRow[],
  from: QualifiedId,
  s: Status,
) {
  const local = localDomain(config);
  const time = new Date().toISOString();
  const here = members.filter((m) => m.userDomain === local).map((m) => m.userId);
  await pushTyping(env, config, conv, from, s, here, time);
  const client = FederatorClient.of(config);
  const remote = groupBy(
    members.filter((m) => m.userDomain !== local),
    (m) => m.userDomain,
  );
  // Best effort, as typing is: a backend that cannot be reached misses it.
  await Promise.allSettled(
    [...remote].map(([domain, ms]) =>
      client.call(domain, onTypingIndicatorUpdatedRpc, {
        time,
        orig_user_id: from,
        conv_id: conv.id,
        users_in_conv: ms.map((m) => m.userId),
        typing_status: s,
      }),
    ),
  );
  return time;
}

/** A local member types in a conversation another backend owns: the owner spreads it. */
export async function typingThroughOwner(c: Context<AppEnv>, conv: QualifiedId, s: Status): Promise<void> {
  const me = selfQualified(c);
  const answer = await FederatorClient.of(c.get('config')).call(conv.domain, updateTypingIndicatorRpc, {
    typing_status: s,
    user_id: me.id,
    conv_id: conv.id,
  });
  if (answer.tag !== 'TypingDataUpdateSuccess')
    throw new ApiError(errorOfGalleyTag(answer.contents) ?? galleyErrors.noConversation);
}

/** A conversation that does not exist: undefined (others errors stay errors). */
const notFound = (err: unknown) => {
  if (err instanceof ApiError && err.spec.label === galleyErrors.noConversation.label) return undefined;
  throw err;
};

const updateTypingIndicatorRpc = rpcContract({
  component: 'galley',
  rpc: 'update-typing-indicator',
  request: updateRequest,
  response: updateResponse,
});

export const updateTypingIndicator = federationRpc(
  { ...updateTypingIndicatorRpc, description: 'Spread to the members, or why not' },
  async (c, r, { origin }) => {
    const config = c.get('config');
    const conv = { id: r.conv_id, domain: deps(c).domain };
    const from = { id: r.user_id, domain: origin };
    const m = await loadMembershipOf(deps(c), conv, from).catch(notFound);
    if (m?.me === undefined) return { tag: 'TypingDataUpdateError', contents: 'ConvNotFound' };
    const time = await typingInOwned(c.env, config, conv, m.members, from, r.typing_status);
    const users = m.members.filter((x) => x.userDomain === origin).map((x) => x.userId);
    const contents = {
      time,
      orig_user_id: from,
      conv_id: r.conv_id,
      users_in_conv: users,
      typing_status: r.typing_status,
    };
    return { tag: 'TypingDataUpdateSuccess', contents };
  },
);

const onTypingIndicatorUpdatedRpc = rpcContract({
  component: 'galley',
  rpc: 'on-typing-indicator-updated',
  request: typingUpdated,
  response: emptyResponse,
});

export const onTypingIndicatorUpdated = federationRpc(
  { ...onTypingIndicatorUpdatedRpc, description: 'Pushed to the members here' },
  async (c, t, { origin }) => {
    const conv = { id: t.conv_id, domain: origin };
    const config = c.get('config');
    const here = await localUsersOfCopy(c.env, conv, deps(c).domain);
    const users = t.users_in_conv.filter((u) => here.has(u));
    await pushTyping(c.env, config, conv, t.orig_user_id, t.typing_status, users, t.time);
    return {};
  },
);
