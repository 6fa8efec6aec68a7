import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { ApiError } from '../../api/errors/api-error.js';
import {
  DomainsError,
  federationErrors,
  nonFederatingBackendsSpec,
  unreachableBackends,
} from '../../api/errors/federation.js';
import type { QualifiedId } from '../../api/schemas/common.js';
import { FederatorClient } from '../../federation/client.js';
import { selfQualified } from '../../api/self.js';
import { commitChange, type Change } from '../../effects/commit-change.js';
import { conversationEvent } from '../../events/conversation-events.js';
import { notifyRemoteMembers } from './conversation-updated.js';
import type { ConversationRow, MemberRow } from '../conversations/conversation-store.js';
import { conversationCreatedPayload, onConversationCreatedRpc } from './conversation-created.js';
import { deps } from '../../api/deps.js';
import { getNotFullyConnectedBackendsRpc } from '../../federation/backends-rpc.js';

/** The other backends among these users. */
function remoteDomainsOf(users: ReadonlyArray<{ domain: string }>, local: string): string[] {
  return [...new Set(users.map((u) => u.domain).filter((d) => d !== local))];
}

/**
 * Checks that remote users may be in a conversation of this protocol here (galley's
 * `federationProtocols`) and that every two backends involved federate with each other: 409
 * `federation-disabled-for-protocol`, 409 `non_federating_backends`, 533 when one cannot be asked.
 */
export async function requireFederating(
  c: Context<AppEnv>,
  protocol: string,
  users: readonly QualifiedId[],
): Promise<void> {
  const config = c.get('config');
  const domains = remoteDomainsOf(users, deps(c).domain);
  if (domains.length === 0) return;
  if (!config.galley.settings.federationProtocols.includes(protocol as 'proteus'))
    throw new ApiError(federationErrors.disabledForProtocol);
  if (domains.length < 2) return;
  const client = FederatorClient.of(config);
  const answers = await Promise.allSettled(
    domains.map((d) => client.call(d, getNotFullyConnectedBackendsRpc, { domains: domains.filter((o) => o !== d) })),
  );
  const unreachable = domains.filter((_, i) => failedToAnswer(answers[i]!));
  if (unreachable.length > 0) throw unreachableBackends(unreachable, c.get('apiVersion') ?? 0);
  answers.forEach((a, i) => {
    const missing = a.status === 'fulfilled' ? a.value.non_connected_backends[0] : undefined;
    if (missing !== undefined)
      throw new DomainsError(nonFederatingBackendsSpec, 'non_federating_backends', [domains[i]!, missing]);
  });
}

/**
 * Registers a conversation this backend owns with the backends of the users about to be put in
 * it (on-conversation-created; one that has it already refreshes its copy), then commits the
 * change that puts them there, as wire's galley registers remote members first. When one cannot
 * be reached, nothing is committed: backends that had nobody in the conversation before are told
 * it is gone, and the caller gets 533 naming the unreachable ones.
 */
export async function registerThenCommit(
  c: Context<AppEnv>,
  conv: ConversationRow,
  members: readonly MemberRow[],
  added: readonly QualifiedId[],
  change: Change,
): Promise<void> {
  const config = c.get('config');
  const domains = remoteDomainsOf(added, deps(c).domain);
  if (domains.length > 0) {
    const payload = conversationCreatedPayload(conv, members);
    const client = FederatorClient.of(config);
    const results = await Promise.allSettled(domains.map((d) => client.call(d, onConversationCreatedRpc, payload)));
    const unreachable = domains.filter((_, i) => failedToAnswer(results[i]!));
    if (unreachable.length > 0) {
      const isAdded = (m: MemberRow) => added.some((u) => u.id === m.userId && u.domain === m.userDomain);
      const before = new Set(members.filter((m) => !isAdded(m)).map((m) => m.userDomain));
      const told = members.filter((m) => !before.has(m.userDomain) && !unreachable.includes(m.userDomain));
      await notifyRemoteMembers(
        c.env,
        config,
        conv,
        told,
        conversationEvent('conversation.delete', conv, selfQualified(c), null),
      );
      throw unreachableBackends(unreachable, c.get('apiVersion') ?? 0);
    }
  }
  await commitChange(c.env, config, change);
}

/** Whether a call to another backend failed (a refusal or no answer); anything else is a bug, thrown. */
function failedToAnswer(result: PromiseSettledResult<unknown>): boolean {
  if (result.status === 'fulfilled') return false;
  if (result.reason instanceof ApiError) return true;
  throw result.reason;
}
