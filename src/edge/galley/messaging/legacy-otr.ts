import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { ClientMap, MessageSendingStatus } from '../../../objects/conversation/types.js';
import { fromBase64 } from '../../../shared/base64.js';
import { decodeLegacyOtr, OtrDecodeError, type OtrMessage, type OtrRecipient } from '../../../shared/codecs/otr.js';
import type { AppEnv } from '../../api/app-env.js';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { commonErrors } from '../../api/errors/common.js';
import { galleyErrors } from '../../api/errors/galley.js';
import { json } from '../../api/schemas/common.js';
import { self } from '../../api/self.js';
import { CLIENT_ID_PATTERN } from '../../brig/clients/client-id.js';
import { conversationObject } from './conversation-object.js';
import { legacyStrategy } from './legacy-strategy.js';

const clientMap = z.record(z.string(), z.array(z.string()));
export const clientMismatch = z
  .object({ time: z.string(), missing: clientMap, redundant: clientMap, deleted: clientMap })
  .openapi('ClientMismatch');

const newOtrMessageJson = z
  .object({
    sender: z.string().regex(CLIENT_ID_PATTERN),
    recipients: z.record(z.uuid(), z.record(z.string().regex(CLIENT_ID_PATTERN), z.string())),
    native_push: z.boolean().optional(),
    transient: z.boolean().optional(),
    native_priority: z.enum(['low', 'high']).optional(),
    data: z.string().optional(),
    report_missing: z.array(z.uuid()).optional(),
  })
  .openapi('new-otr-message');

function bytesOf(b64: string): Uint8Array {
  const bytes = fromBase64(b64);
  if (bytes === undefined) throw new ApiError(commonErrors.badRequest, 'Invalid base64 in the message');
  return bytes;
}

/** The message, from JSON or from a protobuf `NewOtrMessage`, with the legacy strategy applied. */
async function readMessage(c: Context<AppEnv>, domain: string, query: { ignore_missing?: string; report_missing?: string }): Promise<OtrMessage> {
  if (c.req.header('content-type')?.includes('application/x-protobuf')) {
    try {
      const m = decodeLegacyOtr(new Uint8Array(await c.req.arrayBuffer()), domain);
      return { ...m, strategy: legacyStrategy(m.reportMissing, query, domain) };
    } catch (err) {
      if (err instanceof OtrDecodeError) throw new ApiError(commonErrors.badRequest, `Malformed NewOtrMessage: ${err.message}`);
      throw err;
    }
  }
  const parsed = newOtrMessageJson.safeParse(await c.req.json().catch(() => undefined));
  if (!parsed.success) throw new ApiError(commonErrors.badRequest, parsed.error.issues[0]?.message ?? 'Malformed message');
  const body = parsed.data;
  const recipients: OtrRecipient[] = Object.entries(body.recipients).flatMap(([user, clients]) =>
    Object.entries(clients).map(([client, text]) => ({ domain, user, client, text: bytesOf(text) })),
  );
  return {
    sender: body.sender,
    recipients,
    nativePush: body.native_push ?? true,
    transient: body.transient ?? false,
    priority: body.native_priority,
    blob: body.data === undefined ? undefined : bytesOf(body.data),
    strategy: legacyStrategy(body.report_missing, query, domain),
  };
}

const localPart = (m: ClientMap, domain: string) => m[domain] ?? {};
const toMismatch = (s: MessageSendingStatus, domain: string) => ({
  time: s.time,
  missing: localPart(s.missing, domain),
  redundant: localPart(s.redundant, domain),
  deleted: localPart(s.deleted, domain),
});

/** `POST /conversations/{cnv}/otr/messages`: the unqualified, local-only form, JSON or protobuf. */
export const postLegacyOtrMessage = endpoint(
  {
    name: 'post-otr-message-unqualified',
    method: 'post',
    path: '/conversations/{cnv}/otr/messages',
    request: {
      params: z.object({ cnv: z.uuid() }),
      query: z.object({ ignore_missing: z.string().optional(), report_missing: z.string().optional() }),
      body: {
        required: true,
        content: {
          'application/json': { schema: newOtrMessageJson },
          'application/x-protobuf': { schema: z.string().openapi({ format: 'binary' }) },
        },
      },
    },
    errors: [commonErrors.badRequest, galleyErrors.noConversation, galleyErrors.unknownClient],
    responses: {
      201: { description: 'Message sent', ...json(clientMismatch) },
      412: { description: 'Missing clients: nothing was sent', ...json(clientMismatch) },
    },
  },
  async (c) => {
    const config = c.get('config');
    const domain = config.brig.optSettings.setFederationDomain;
    const message = await readMessage(c, domain, c.req.valid('query'));
    const me = self(c);
    const conv = { id: c.req.valid('param').cnv, domain };
    const result = await conversationObject(c.env, conv).sendProteus(
      { conv, sender: { id: me.user, domain, client: message.sender, connection: me.connection }, message, ttlSeconds: config.gundeck.settings.notificationTTL },
      domain,
    );
    if (result.kind === 'no-conversation') throw new ApiError(galleyErrors.noConversation);
    if (result.kind === 'unknown-client') throw new ApiError(galleyErrors.unknownClient);
    return c.json(toMismatch(result.status, domain), result.kind === 'sent' ? 201 : 412);
  },
);
