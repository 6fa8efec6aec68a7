// send-mls-message, the caller's side: a client of this backend posts to a group another backend
// owns, which checks the message and fans it out (the owner's side: send-mls-message.ts).
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { toBase64 } from '../../../shared/base64.js';
import type { AppEnv } from '../../api/app-env.js';
import { ApiError } from '../../api/errors/api-error.js';
import { federationErrors } from '../../api/errors/federation.js';
import { mlsErrors } from '../../api/errors/mls.js';
import { self } from '../../api/self.js';
import { FederatorClient } from '../../federation/client.js';
import { taggedAnswer } from '../../federation/rpc.js';
import type { GroupTarget } from '../mls/group-conversation.js';
import { errorOfGalleyTag } from './galley-error-tags.js';

const convOrSub = z.object({
  tag: z.enum(['conv', 'subconv']),
  value: z.object({ conv_id: z.uuid(), subconv_id: z.string().optional() }),
});
export const sendRequest = z
  .object({ conv_or_sub_id: convOrSub, sender: z.uuid(), sender_client: z.string(), raw_message: z.base64() })
  .loose()
  .openapi('MLSMessageSendRequest');
/** wire's MLSMessageResponse (a tagged sum); the variants this backend sends and reads. */
export const sendResponse = taggedAnswer('MLSMessageResponse');

/** The owner's answer as this backend's error, or the events when it took the message. */
function answerOf(answer: z.output<typeof sendResponse>): { events: Array<Record<string, never>>; time: string } {
  if (answer.tag === 'MLSMessageResponseUpdates') return { events: [], time: new Date().toISOString() };
  if (answer.tag === 'MLSMessageResponseProtocolError')
    throw new ApiError(mlsErrors.mlsProtocolError, String(answer.contents ?? ''));
  const spec = answer.tag === 'MLSMessageResponseError' ? errorOfGalleyTag(answer.contents) : undefined;
  throw new ApiError(spec ?? federationErrors.remoteError, spec === undefined ? JSON.stringify(answer) : undefined);
}

/** Posts a message of a group another backend owns through that backend (201 body: events and time). */
export async function sendMlsThroughOwner(c: Context<AppEnv>, target: GroupTarget, bytes: Uint8Array) {
  const me = self(c);
  const request = {
    conv_or_sub_id:
      target.subconv === undefined
        ? { tag: 'conv', value: { conv_id: target.id.id } }
        : { tag: 'subconv', value: { conv_id: target.id.id, subconv_id: target.subconv } },
    sender: me.user,
    sender_client: me.client,
    raw_message: toBase64(bytes),
  };
  const client = FederatorClient.of(c.get('config'));
  return answerOf(await client.call(target.id.domain, 'galley', 'send-mls-message', request, sendResponse));
}
