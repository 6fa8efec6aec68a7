// The owner's side of conversations with members on other backends: which backends are involved,
// whether they all federate with each other, and registering a new conversation with them.
import { z } from '@hono/zod-openapi';
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
import { emptyResponse } from '../../federation/rpc.js';
import type { ConversationRow, MemberRow } from '../conversations/conversation-store.js';
import { conversationCreatedPayload } from './conversation-created.js';

const nonConnected = z.object({ non_connected_backends: z.array(z.string()) });

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
  const domains = remoteDomainsOf(users, config.brig.optSettings.setFederationDomain);
  if (domains.length === 0) return;
  if (!config.galley.settings.federationProtocols.includes(protocol as 'proteus'))
    throw new ApiError(federationErrors.disabledForProtocol);
  if (domains.length < 2) return;
  const client = FederatorClient.of(config);
  const answers = await Promise.allSettled(
    domains.map((d) =>
      client.call(
        d,
        'brig',
        'get-not-fully-connected-backends',
        { domains: domains.filter((o) => o !== d) },
        nonConnected,
      ),
    ),
  );
  const unreachable = domains.filter((_, i) => answers[i]!.status === 'rejected');
  if (unreachable.length > 0) throw unreachableBackends(unreachable, c.get('apiVersion') ?? 0);
  answers.forEach((a, i) => {
    const missing = a.status === 'fulfilled' ? a.value.non_connected_backends[0] : undefined;
    if (missing !== undefined)
      throw new DomainsError(nonFederatingBackendsSpec, 'non_federating_backends', [domains[i]!, missing]);
  });
}

/**
 * Registers a conversation this backend owns with the backends of its remote members
 * (on-conversation-created; one that has it already just answers). Returns those that registered
 * it and those that could not be reached, for the caller to undo the change.
 */
export async function registerWithRemotes(
  c: Context<AppEnv>,
  conv: ConversationRow,
  members: readonly MemberRow[],
  /** Only these users' backends (members added later); default: every remote member's. */
  only?: readonly QualifiedId[],
): Promise<{ registered: string[]; unreachable: string[] }> {
  const config = c.get('config');
  const domains = remoteDomainsOf(
    only ?? members.map((m) => ({ domain: m.userDomain })),
    config.brig.optSettings.setFederationDomain,
  );
  const payload = conversationCreatedPayload(conv, members);
  const client = FederatorClient.of(config);
  const results = await Promise.allSettled(
    domains.map((d) => client.call(d, 'galley', 'on-conversation-created', payload, emptyResponse)),
  );
  results.forEach((r) => {
    if (r.status === 'rejected' && !(r.reason instanceof ApiError)) throw r.reason;
  });
  return {
    registered: domains.filter((_, i) => results[i]!.status === 'fulfilled'),
    unreachable: domains.filter((_, i) => results[i]!.status === 'rejected'),
  };
}
