import { toBase64 } from '../../../shared/base64.js';
import type { MlsSender, ProposalEffect } from '../../../shared/mls/delivery.js';
import { classifyPostedMessage, type PublicProposal } from '../../../shared/mls/messages.js';
import { proposalRef } from '../../../shared/mls/removal.js';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { federationErrors } from '../../api/errors/federation.js';
import { galleyErrors } from '../../api/errors/galley.js';
import { mlsErrors } from '../../api/errors/mls.js';
import { json } from '../../api/schemas/common.js';
import { self } from '../../api/self.js';
import { conversationObject } from '../conversations/conversation-object.js';
import { failedToSend, mlsBody, mlsSent } from './mls-body.js';
import { parsed, refusalError } from './mls-failure.js';
import { keyPackageBytes } from '../../../shared/mls/key-package.js';
import { addedClients, type MlsKeyLookup, mlsKeyLookup } from './added-clients.js';
import { groupConversation, type GroupTarget, groupTarget } from './group-conversation.js';
import { ConvType } from '../../../shared/mls/group-id.js';
import type { QualifiedId } from '../../api/schemas/common.js';
import type { MemberRow } from '../conversations/conversation-store.js';
import { requireMls } from './mls-enabled.js';
import { tellRemotesOfMls, unreachableRecipients } from '../federation/mls-remote.js';
import { sendMlsThroughOwner } from '../federation/mls-through-owner.js';
import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { deps } from '../../api/deps.js';
import type { UserAccess } from '../../api/access/user-access.js';

/** What a member's proposal does: removes a leaf, adds the client its key package names, or something else. */
async function effectOf(keysOf: MlsKeyLookup, proposal: PublicProposal, suite: number): Promise<ProposalEffect> {
  const p = proposal.content.proposal;
  if (proposal.content.sender.senderType !== 'member')
    throw new ApiError(mlsErrors.mlsUnsupportedMessage, 'Only members may propose');
  if ('remove' in p) return { remove: p.remove.removed };
  // An added key package is checked now, as an inline Add is at commit time.
  if ('add' in p) return { add: (await addedClients(keysOf, [keyPackageBytes(p.add.keyPackage)], suite))[0]! };
  return { other: String(p.proposalType) };
}

/** The members of a 1:1 who blocked the sender: MLS 1:1 messages do not reach them. */
async function blockedBy(users: UserAccess, members: readonly MemberRow[], sender: QualifiedId) {
  const others = members.filter((m) => m.userId !== sender.id || m.userDomain !== sender.domain);
  const blocking = [];
  for (const m of others)
    if (await users.hasBlocked({ id: m.userId, domain: m.userDomain }, sender))
      blocking.push({ user: m.userId, domain: m.userDomain });
  return blocking;
}

/**
 * `POST /mls/messages`: a member's proposal (public) or an application message (private), checked
 * against the group's epoch by the conversation's object and sent to the group's other clients.
 */
export const postMlsMessage = endpoint(
  {
    name: 'mls-message',
    method: 'post',
    path: '/mls/messages',
    from: 5,
    request: { body: mlsBody },
    errors: [
      mlsErrors.mlsNotEnabled,
      mlsErrors.mlsProtocolError,
      mlsErrors.mlsStaleMessage,
      mlsErrors.mlsUnsupportedMessage,
      galleyErrors.noConversation,
      federationErrors.federationNotEnabled,
    ],
    responses: { 201: { description: 'Message sent', ...json(mlsSent) } },
  },
  async (c) => {
    requireMls(c);
    const me = self(c);
    if (me.client === undefined) throw new ApiError(mlsErrors.mlsProtocolError, 'The sender has no client');
    const bytes = new Uint8Array(await c.req.arrayBuffer());
    const posted = await parsed(async () => classifyPostedMessage(bytes));
    const target = groupTarget(c, groupIdOf(posted), { remote: true });
    const local = deps(c).domain;
    if (target.id.domain !== local) return c.json(await sendMlsThroughOwner(c, target, bytes), 201);
    const sender = { user: me.user, domain: local, client: me.client, connection: me.connection };
    const { time, failed } = await deliverMlsMessage(c, sender, posted, target);
    return c.json({ events: [], time, ...failedToSend(failed) }, 201);
  },
);

type Posted = Awaited<ReturnType<typeof classifyPostedMessage>>;

/** The group a posted proposal or application message is for. */
export const groupIdOf = (posted: Posted) =>
  (posted.kind === 'proposal' ? posted.proposal.content : posted.application.message).groupId;

/**
 * A proposal or application message of a group owned here, from a local client or (through
 * send-mls-message) a remote one: the conversation's object checks it and fans it out; other
 * backends' clients get it through theirs. Returns the time it was sent, and the users whose
 * backends are not taking notifications now.
 */
export async function deliverMlsMessage(
  c: Context<AppEnv>,
  sender: MlsSender,
  posted: Posted,
  target: GroupTarget,
): Promise<{ time: string; failed: QualifiedId[] }> {
  const message = posted.kind === 'proposal' ? posted.proposal.content : posted.application.message;
  const { id: conv, subconv } = target;
  const config = c.get('config');
  const localDomain = deps(c).domain;
  // An application message to a group conversation needs nothing from D1: its object checks
  // the sender's membership against the group it holds. Proposals need the suite, 1:1s the blocks.
  const remote = sender.domain === localDomain ? undefined : { id: sender.user, domain: sender.domain };
  const membership =
    posted.kind === 'application' && target.convType !== ConvType.one2one
      ? undefined
      : await groupConversation(c, target, remote);
  const row = membership?.conv;
  // A group gets its suite with its first commit; before it, proposals are refused (epoch 0) anyway.
  const suite = row?.cipherSuite ?? 1;
  const proposal =
    posted.kind === 'proposal'
      ? await parsed(async () => ({
          ref: toBase64(await proposalRef(suite, posted.proposal)),
          effect: await effectOf(mlsKeyLookup(deps(c).users, suite), posted.proposal, suite),
        }))
      : undefined;
  const bytes = posted.kind === 'proposal' ? posted.proposal.bytes : posted.application.bytes;
  const result = await conversationObject(c.env, conv).mlsMessage({
    conv,
    subconv,
    groupId: toBase64(message.groupId),
    localDomain,
    sender,
    epoch: Number(message.epoch),
    message: bytes,
    proposal,
    skipUsers:
      membership?.conv.type === 2
        ? await blockedBy(deps(c).users, membership.members, { id: sender.user, domain: sender.domain })
        : undefined,
    ttlSeconds: config.gundeck.settings.notificationTTL,
  });
  if ('refusal' in result) throw refusalError(result.refusal, result.message);
  const sent = {
    conv,
    subconv,
    sender: { id: sender.user, domain: sender.domain },
    time: result.time,
    remote: result.remote ?? [],
    bytes: { message: bytes },
  };
  await tellRemotesOfMls(c.env, config, sent, [], []);
  const failed = await unreachableRecipients(c.env, sent.remote);
  return { time: result.time, failed };
}
