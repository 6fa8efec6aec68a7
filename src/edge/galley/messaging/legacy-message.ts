// The unqualified `/otr/messages` forms (conversation and broadcast): body, query and answer.
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { ClientMap, MessageSendingStatus } from '../../../shared/proteus/types.js';
import { fromBase64 } from '../../../shared/base64.js';
import {
  decodeLegacyOtr,
  OtrDecodeError,
  type MismatchStrategy,
  type OtrMessage,
  type OtrRecipient,
} from '../../../shared/codecs/otr.js';
import type { AppEnv } from '../../api/app-env.js';
import { ApiError } from '../../api/errors/api-error.js';
import { commonErrors } from '../../api/errors/common.js';
import { galleyErrors } from '../../api/errors/galley.js';
import { legalholdErrors } from '../../api/errors/legalhold.js';
import { readingNullAsAbsent } from '../../api/null-as-absent.js';
import { json } from '../../api/schemas/common.js';
import { CLIENT_ID_PATTERN } from '../../../shared/client-id.js';
import { legacyStrategy } from './legacy-strategy.js';
import { checkStorable } from './storable-size.js';

const clientMap = z.record(z.string(), z.array(z.string()));
const clientMismatch = z
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

const otrMessageJsonBody = readingNullAsAbsent(newOtrMessageJson);

const legacyQuery = z.object({ ignore_missing: z.string().optional(), report_missing: z.string().optional() });
export type LegacyQuery = z.infer<typeof legacyQuery>;

/** The request part of a legacy route's declaration: the strategy query and a JSON or protobuf body. */
export const legacyOtrRequest = {
  query: legacyQuery,
  body: {
    required: true,
    content: {
      'application/json': { schema: newOtrMessageJson },
      'application/x-protobuf': { schema: z.string().openapi({ format: 'binary' }) },
    },
  },
};

/** What sending an unqualified message may refuse. */
export const legacyOtrErrors = [
  commonErrors.badRequest,
  commonErrors.payloadTooLarge,
  galleyErrors.noConversation,
  galleyErrors.unknownClient,
  legalholdErrors.missingConsent,
];

export const legacyOtrResponses = {
  201: { description: 'Message sent', ...json(clientMismatch) },
  412: { description: 'Missing clients: nothing was sent', ...json(clientMismatch) },
};

function bytesOf(b64: string): Uint8Array {
  const bytes = fromBase64(b64);
  if (bytes === undefined) throw new ApiError(commonErrors.badRequest, 'Invalid base64 in the message');
  return bytes;
}

/** The message, from JSON or from a protobuf `NewOtrMessage`, with the legacy strategy applied. */
export async function readLegacyOtr(
  c: Context<AppEnv>,
  domain: string,
  query: LegacyQuery,
): Promise<OtrMessage & { strategy: MismatchStrategy }> {
  if (c.req.header('content-type')?.includes('application/x-protobuf')) {
    try {
      const m = decodeLegacyOtr(new Uint8Array(await c.req.arrayBuffer()), domain);
      checkStorable(m);
      return { ...m, strategy: legacyStrategy(m.reportMissing, query, domain) };
    } catch (err) {
      if (err instanceof OtrDecodeError)
        throw new ApiError(commonErrors.badRequest, `Malformed NewOtrMessage: ${err.message}`);
      throw err;
    }
  }
  const parsed = otrMessageJsonBody.safeParse(await c.req.json().catch(() => undefined));
  if (!parsed.success)
    throw new ApiError(commonErrors.badRequest, parsed.error.issues[0]?.message ?? 'Malformed message');
  const body = parsed.data;
  const recipients: OtrRecipient[] = Object.entries(body.recipients).flatMap(([user, clients]) =>
    Object.entries(clients).map(([client, text]) => ({ domain, user, client, text: bytesOf(text) })),
  );
  const message = {
    sender: body.sender,
    recipients,
    nativePush: body.native_push ?? true,
    transient: body.transient ?? false,
    priority: body.native_priority,
    blob: body.data === undefined ? undefined : bytesOf(body.data),
    strategy: legacyStrategy(body.report_missing, query, domain),
  };
  checkStorable(message);
  return message;
}

const localPart = (m: ClientMap, domain: string) => m[domain] ?? {};

/** The unqualified `ClientMismatch`: the local domain's part of a `MessageSendingStatus`. */
export const toClientMismatch = (s: MessageSendingStatus, domain: string) => ({
  time: s.time,
  missing: localPart(s.missing, domain),
  redundant: localPart(s.redundant, domain),
  deleted: localPart(s.deleted, domain),
});
