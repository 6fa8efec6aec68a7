import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { commonErrors } from '../../api/errors/common.js';
import { galleyErrors } from '../../api/errors/galley.js';
import { legalholdErrors } from '../../api/errors/legalhold.js';
import { readQualifiedOtr } from './qualified-otr.js';
import { json } from '../../api/schemas/common.js';
import { self, selfQualified } from '../../api/self.js';
import { convParams } from '../conversations/read-routes.js';
import { FEDERATED_CALL_ERRORS } from '../../api/errors/federation.js';
import { conversationBook } from '../conversations/conversation-book.js';
import { sendThroughOwner } from '../federation/send-message.js';
import { sendInOwnedConversation } from './proteus-send.js';
import { messageSendingStatus } from './sending-status.js';
import { deps } from '../../api/deps.js';

/**
 * `POST /conversations/{domain}/{cnv}/proteus/messages`: a protobuf `QualifiedNewOtrMessage`,
 * checked against the members' clients and fanned out by the conversation's object.
 */
export const postProteusMessage = endpoint(
  {
    name: 'post-proteus-message',
    method: 'post',
    path: '/conversations/{cnv_domain}/{cnv}/proteus/messages',
    request: {
      params: convParams,
      body: {
        required: true,
        content: { 'application/x-protobuf': { schema: z.string().openapi({ format: 'binary' }) } },
      },
    },
    errors: [
      commonErrors.badRequest,
      commonErrors.payloadTooLarge,
      galleyErrors.noConversation,
      galleyErrors.unknownClient,
      legalholdErrors.missingConsent,
      ...FEDERATED_CALL_ERRORS,
    ],
    responses: {
      201: { description: 'Message sent', ...json(messageSendingStatus) },
      412: { description: 'Missing clients: nothing was sent', ...json(messageSendingStatus) },
    },
  },
  async (c) => {
    const { cnv_domain, cnv } = c.req.valid('param');
    const { raw, ...message } = await readQualifiedOtr(c);
    const me = self(c);
    const domain = deps(c).domain;
    const conv = { id: cnv, domain: cnv_domain };
    const result =
      cnv_domain === domain
        ? await sendInOwnedConversation(deps(c), {
            conv,
            sender: { id: me.user, domain, client: message.sender, connection: me.connection },
            message,
          })
        : await sendToRemoteConversation(c, conv, raw);
    switch (result.kind) {
      case 'no-conversation':
        throw new ApiError(galleyErrors.noConversation);
      case 'unknown-client':
        throw new ApiError(galleyErrors.unknownClient);
      case 'missing-legalhold-consent':
        throw new ApiError(legalholdErrors.missingConsent);
      case 'missing-clients':
        return c.json(result.status, 412);
      case 'sent':
        return c.json(result.status, 201);
    }
  },
);

/** A message to a conversation another backend owns: only a member here may send it there. */
async function sendToRemoteConversation(c: Context<AppEnv>, conv: { id: string; domain: string }, raw: Uint8Array) {
  const member = await conversationBook.member(c.env, conv, selfQualified(c));
  if (member === undefined) return { kind: 'no-conversation' as const };
  return sendThroughOwner(c.get('config'), conv, self(c).user, raw);
}
