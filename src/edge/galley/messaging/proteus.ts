import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import {
  decodeQualifiedOtr,
  OtrDecodeError,
  type MismatchStrategy,
  type OtrMessage,
} from '../../../shared/codecs/otr.js';
import type { AppEnv } from '../../api/app-env.js';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { commonErrors } from '../../api/errors/common.js';
import { galleyErrors } from '../../api/errors/galley.js';
import { checkStorable } from './storable-size.js';
import { json } from '../../api/schemas/common.js';
import { self } from '../../api/self.js';
import { convParams } from '../conversations/read-routes.js';
import { conversationObject } from './conversation-object.js';

const clientMap = z.record(z.string(), z.record(z.string(), z.array(z.string())));
export const messageSendingStatus = z
  .object({
    time: z.string(),
    missing: clientMap,
    redundant: clientMap,
    deleted: clientMap,
    failed_to_send: clientMap,
    failed_to_confirm_clients: clientMap,
  })
  .openapi('MessageSendingStatus');

/** The request's `QualifiedNewOtrMessage`, with a strategy: anything else is 400 `bad-request`. */
export async function readQualifiedOtr(c: Context<AppEnv>): Promise<OtrMessage & { strategy: MismatchStrategy }> {
  let message: OtrMessage;
  try {
    message = decodeQualifiedOtr(new Uint8Array(await c.req.arrayBuffer()));
  } catch (err) {
    if (err instanceof OtrDecodeError)
      throw new ApiError(commonErrors.badRequest, `Malformed QualifiedNewOtrMessage: ${err.message}`);
    throw err;
  }
  if (message.strategy === undefined)
    throw new ApiError(commonErrors.badRequest, 'ClientMismatchStrategy not specified!');
  checkStorable(message);
  return { ...message, strategy: message.strategy };
}

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
    ],
    responses: {
      201: { description: 'Message sent', ...json(messageSendingStatus) },
      412: { description: 'Missing clients: nothing was sent', ...json(messageSendingStatus) },
    },
  },
  async (c) => {
    const { cnv_domain, cnv } = c.req.valid('param');
    const message = await readQualifiedOtr(c);
    const me = self(c);
    const config = c.get('config');
    const domain = config.brig.optSettings.setFederationDomain;
    const result = await conversationObject(c.env, { id: cnv, domain: cnv_domain }).sendProteus(
      {
        conv: { id: cnv, domain: cnv_domain },
        sender: { id: me.user, domain, client: message.sender, connection: me.connection },
        message,
        ttlSeconds: config.gundeck.settings.notificationTTL,
      },
      domain,
    );
    switch (result.kind) {
      case 'no-conversation':
        throw new ApiError(galleyErrors.noConversation);
      case 'unknown-client':
        throw new ApiError(galleyErrors.unknownClient);
      case 'missing-clients':
        return c.json(result.status, 412);
      case 'sent':
        return c.json(result.status, 201);
    }
  },
);
