// send-message: a member on another backend sends a Proteus message in a conversation this
// backend owns (answered as wire's MessageSendResponse); and the other way round, a local member's
// message to a conversation another backend owns goes to it through this RPC.
import { z } from '@hono/zod-openapi';
import { fromBase64, toBase64 } from '../../../shared/base64.js';
import type { Config } from '../../../shared/config/index.js';
import type { MessageSendingStatus, QualifiedRef } from '../../../shared/proteus/types.js';
import { ApiError } from '../../api/errors/api-error.js';
import { commonErrors } from '../../api/errors/common.js';
import { galleyErrors } from '../../api/errors/galley.js';
import { FederatorClient } from '../../federation/client.js';
import { federationRpc } from '../../federation/rpc.js';
import { messageSendingStatus } from '../messaging/sending-status.js';
import { sendInOwnedConversation } from '../messaging/proteus-send.js';
import { parseQualifiedOtr } from '../messaging/qualified-otr.js';
import { deps } from '../../api/deps.js';
import { rpcContract } from '../../federation/contract.js';

const sendRequest = z
  .object({ conv_id: z.uuid(), sender: z.uuid(), raw_message: z.string() })
  .openapi('ProteusMessageSendRequest');

const notSent = z.union([
  z.object({
    tag: z.enum([
      'MessageNotSentConversationNotFound',
      'MessageNotSentUnknownClient',
      'MessageNotSentLegalhold',
      'MessageNotSentLegalholdOldClients',
    ]),
  }),
  z.object({ tag: z.literal('MessageNotSentClientMissing'), contents: messageSendingStatus }),
]);
const sendResponse = z
  .union([z.object({ Left: notSent }), z.object({ Right: messageSendingStatus })])
  .openapi('MessageSendResponse');
type SendResponse = z.output<typeof sendResponse>;

/** A remote member's message in a conversation of this backend. */
const sendMessageRpc = rpcContract({
  component: 'galley',
  rpc: 'send-message',
  request: sendRequest,
  response: sendResponse,
});

export const sendMessage = federationRpc(
  { ...sendMessageRpc, description: 'The sending status, or why nothing was sent' },
  async (c, req, { origin }) => {
    const bytes = fromBase64(req.raw_message);
    if (bytes === undefined) throw new ApiError(commonErrors.badRequest, 'raw_message is not base64');
    const message = parseQualifiedOtr(bytes);
    const conv = { id: req.conv_id, domain: deps(c).domain };
    const sender = { id: req.sender, domain: origin, client: message.sender, connection: '' };
    const result = await sendInOwnedConversation(deps(c), { conv, sender, message });
    switch (result.kind) {
      case 'no-conversation':
        return { Left: { tag: 'MessageNotSentConversationNotFound' } } satisfies SendResponse;
      case 'unknown-client':
        return { Left: { tag: 'MessageNotSentUnknownClient' } } satisfies SendResponse;
      case 'missing-clients':
        return { Left: { tag: 'MessageNotSentClientMissing', contents: result.status } } satisfies SendResponse;
      case 'missing-legalhold-consent':
        return { Left: { tag: 'MessageNotSentLegalhold' } } satisfies SendResponse;
      case 'sent':
        return { Right: result.status } satisfies SendResponse;
    }
  },
);

export type RemoteSendResult =
  | { kind: 'sent' | 'missing-clients'; status: MessageSendingStatus }
  | { kind: 'no-conversation' | 'unknown-client' | 'missing-legalhold-consent' };

/** A local member's message (the request's protobuf, as sent) to a conversation another backend owns. */
export async function sendThroughOwner(
  config: Config,
  conv: QualifiedRef,
  sender: string,
  raw: Uint8Array,
): Promise<RemoteSendResult> {
  const answer = await FederatorClient.of(config).call(conv.domain, sendMessageRpc, {
    conv_id: conv.id,
    sender,
    raw_message: toBase64(raw),
  });
  if ('Right' in answer) return { kind: 'sent', status: answer.Right };
  const refusal = answer.Left;
  if (refusal.tag === 'MessageNotSentClientMissing') return { kind: 'missing-clients', status: refusal.contents };
  if (refusal.tag === 'MessageNotSentUnknownClient') return { kind: 'unknown-client' };
  if (refusal.tag === 'MessageNotSentConversationNotFound') return { kind: 'no-conversation' };
  if (refusal.tag === 'MessageNotSentLegalhold') return { kind: 'missing-legalhold-consent' };
  throw new ApiError(galleyErrors.noConversation, `the owner refused the message (${refusal.tag})`);
}
