import { z } from '@hono/zod-openapi';
import { endpoint } from '../../api/endpoint.js';
import { commonErrors } from '../../api/errors/common.js';
import { galleyErrors } from '../../api/errors/galley.js';
import { json } from '../../api/schemas/common.js';
import { sendBroadcast } from './broadcast-send.js';
import { legacyOtrRequest, legacyOtrResponses, readLegacyOtr, toClientMismatch } from './legacy-message.js';
import { readQualifiedOtr } from './qualified-otr.js';
import { messageSendingStatus } from './sending-status.js';
import { deps } from '../../api/deps.js';

const errors = [
  commonErrors.badRequest,
  commonErrors.payloadTooLarge,
  galleyErrors.noTeam,
  galleyErrors.tooManyUsersToBroadcast,
];

/** `POST /broadcast/proteus/messages`: a protobuf `QualifiedNewOtrMessage` to the sender's team and contacts. */
export const postBroadcast = endpoint(
  {
    name: 'post-proteus-broadcast',
    method: 'post',
    path: '/broadcast/proteus/messages',
    request: {
      body: {
        required: true,
        content: { 'application/x-protobuf': { schema: z.string().openapi({ format: 'binary' }) } },
      },
    },
    errors,
    responses: {
      201: { description: 'Message sent', ...json(messageSendingStatus) },
      412: { description: 'Missing clients: nothing was sent', ...json(messageSendingStatus) },
    },
  },
  async (c) => {
    const { sent, status } = await sendBroadcast(c, await readQualifiedOtr(c));
    return c.json(status, sent ? 201 : 412);
  },
);

/** `POST /broadcast/otr/messages`: the unqualified form, JSON or protobuf `NewOtrMessage`, answering `ClientMismatch`. */
export const postLegacyBroadcast = endpoint(
  {
    name: 'post-otr-broadcast-unqualified',
    method: 'post',
    path: '/broadcast/otr/messages',
    request: legacyOtrRequest,
    errors,
    responses: legacyOtrResponses,
  },
  async (c) => {
    const domain = deps(c).domain;
    const { sent, status } = await sendBroadcast(c, await readLegacyOtr(c, domain, c.req.valid('query')));
    return c.json(toClientMismatch(status, domain), sent ? 201 : 412);
  },
);
