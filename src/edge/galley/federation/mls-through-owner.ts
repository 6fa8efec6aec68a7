// send-mls-message and send-mls-commit-bundle, the caller's side: a client of this backend posts
// to a group another backend owns, which checks the message and fans it out (the owner's side:
// send-mls-message.ts). The owner's answer carries the changes a commit made, as events here.
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { toBase64 } from '../../../shared/base64.js';
import type { AppEnv } from '../../api/app-env.js';
import { ApiError } from '../../api/errors/api-error.js';
import {
  DomainsError,
  federationErrors,
  nonFederatingBackendsSpec,
  unreachableBackends,
} from '../../api/errors/federation.js';
import { mlsErrors } from '../../api/errors/mls.js';
import { self } from '../../api/self.js';
import { conversationEvent } from '../../events/conversation-events.js';
import { FederatorClient } from '../../federation/client.js';
import { taggedAnswer } from '../../federation/rpc.js';
import type { GroupTarget } from '../mls/group-conversation.js';
import { actionOfEvent, type ConversationAction, effectOfAction } from './conversation-actions.js';
import type { ConversationEvent } from './conversation-updated.js';
import { errorOfGalleyTag, galleyErrorTag } from './galley-error-tags.js';
import { rpcContract } from '../../federation/contract.js';

/** wire's ConvOrSubConvId. */
export const convOrSub = z
  .object({
    tag: z.enum(['conv', 'subconv']),
    value: z.object({ conv_id: z.uuid(), subconv_id: z.string().optional() }),
  })
  .refine((x) => (x.tag === 'subconv') === (x.value.subconv_id !== undefined), {
    message: 'a subconversation id goes with the tag subconv, and only with it',
  });
export const convOrSubOf = (conv: string, subconv: string | undefined): z.input<typeof convOrSub> =>
  subconv === undefined
    ? { tag: 'conv', value: { conv_id: conv } }
    : { tag: 'subconv', value: { conv_id: conv, subconv_id: subconv } };

export const sendRequest = z
  .object({ conv_or_sub_id: convOrSub, sender: z.uuid(), sender_client: z.string(), raw_message: z.base64() })
  .loose()
  .openapi('MLSMessageSendRequest');
/** wire's MLSMessageResponse (a tagged sum); the variants this backend sends and reads. */
export const sendResponse = taggedAnswer('MLSMessageResponse');

/** A remote client's MLS message for a group its owner orders. */
export const sendMlsMessageRpc = rpcContract({
  component: 'galley',
  rpc: 'send-mls-message',
  request: sendRequest,
  response: sendResponse,
});
/** A remote client's commit bundle for a group its owner orders. */
export const sendMlsCommitBundleRpc = rpcContract({
  component: 'galley',
  rpc: 'send-mls-commit-bundle',
  request: sendRequest,
  response: sendResponse,
});
type SendResponse = z.input<typeof sendResponse>;

interface Update {
  time: string;
  origUserId: { id: string; domain: string };
  convId: string;
  alreadyPresentUsers: string[];
  action: ConversationAction;
}

/** The owner's answer to a message or commit it took: the changes the commit made (wire's ConversationUpdates). */
export function updatesAnswer(convId: string, events: readonly ConversationEvent[]): SendResponse {
  const updates: Update[] = [];
  for (const e of events) {
    const action = actionOfEvent(e);
    if (action !== undefined)
      updates.push({ time: e.time, origUserId: e.qualified_from, convId, alreadyPresentUsers: [], action });
  }
  return { tag: 'MLSMessageResponseUpdates', contents: updates };
}

/** The owner's answer to a refusal: wire's variant for it. Errors that are not refusals are thrown on. */
export function refusalAnswer(err: unknown): SendResponse {
  if (!(err instanceof ApiError)) throw err;
  if (err instanceof DomainsError)
    return err.key === 'unreachable_backends'
      ? { tag: 'MLSMessageResponseUnreachableBackends', contents: [...err.domains] }
      : { tag: 'MLSMessageResponseNonFederatingBackends', contents: { non_federating_backends: [...err.domains] } };
  if (err.spec.label === mlsErrors.mlsProtocolError.label)
    return { tag: 'MLSMessageResponseProtocolError', contents: err.message };
  return { tag: 'MLSMessageResponseError', contents: galleyErrorTag(err.spec) };
}

const domainsOf = (v: unknown): string[] => (Array.isArray(v) ? v.filter((d) => typeof d === 'string') : []);

/** The owner's answer as this backend's error, or the events its commit caused. */
function answerOf(c: Context<AppEnv>, target: GroupTarget, answer: z.output<typeof sendResponse>) {
  switch (answer.tag) {
    case 'MLSMessageResponseUpdates': {
      const updates = Array.isArray(answer.contents) ? (answer.contents as Update[]) : [];
      const events = updates.flatMap((u) => {
        const effect = effectOfAction(u.action, u.origUserId);
        return effect === undefined
          ? []
          : [conversationEvent(effect.type, target.id, u.origUserId, effect.data, { time: u.time })];
      });
      return { events, time: events[0]?.time ?? new Date().toISOString() };
    }
    case 'MLSMessageResponseProtocolError':
      throw new ApiError(mlsErrors.mlsProtocolError, String(answer.contents ?? ''));
    case 'MLSMessageResponseUnreachableBackends':
      throw unreachableBackends(domainsOf(answer.contents), c.get('apiVersion') ?? 0);
    case 'MLSMessageResponseNonFederatingBackends': {
      const pair = domainsOf(
        (answer.contents as { non_federating_backends?: unknown } | undefined)?.non_federating_backends,
      );
      throw new DomainsError(nonFederatingBackendsSpec, 'non_federating_backends', pair);
    }
  }
  const spec = answer.tag === 'MLSMessageResponseError' ? errorOfGalleyTag(answer.contents) : undefined;
  throw new ApiError(spec ?? federationErrors.remoteError, spec === undefined ? JSON.stringify(answer) : undefined);
}

/** Posts a message or commit bundle of a group another backend owns through that backend (201 body: events and time). */
export async function sendMlsThroughOwner(
  c: Context<AppEnv>,
  target: GroupTarget,
  bytes: Uint8Array,
  rpc: typeof sendMlsMessageRpc = sendMlsMessageRpc,
) {
  const me = self(c);
  const request = {
    conv_or_sub_id: convOrSubOf(target.id.id, target.subconv),
    sender: me.user,
    sender_client: me.client!, // its callers refuse a sender without a client
    raw_message: toBase64(bytes),
  };
  const client = FederatorClient.of(c.get('config'));
  return answerOf(c, target, await client.call(target.id.domain, rpc, request));
}
