import { z } from '@hono/zod-openapi';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { galleyErrors } from '../../api/errors/galley.js';
import { legalholdErrors } from '../../api/errors/legalhold.js';
import { self } from '../../api/self.js';
import { sendInOwnedConversation } from './proteus-send.js';
import {
  legacyOtrErrors,
  legacyOtrRequest,
  legacyOtrResponses,
  readLegacyOtr,
  toClientMismatch,
} from './legacy-message.js';
import { deps } from '../../api/deps.js';

/** `POST /conversations/{cnv}/otr/messages`: the unqualified, local-only form, JSON or protobuf. */
export const postLegacyOtrMessage = endpoint(
  {
    name: 'post-otr-message-unqualified',
    method: 'post',
    path: '/conversations/{cnv}/otr/messages',
    request: { params: z.object({ cnv: z.uuid() }), ...legacyOtrRequest },
    errors: legacyOtrErrors,
    responses: legacyOtrResponses,
  },
  async (c) => {
    const domain = deps(c).domain;
    const message = await readLegacyOtr(c, domain, c.req.valid('query'));
    const me = self(c);
    const conv = { id: c.req.valid('param').cnv, domain };
    const result = await sendInOwnedConversation(deps(c), {
      conv,
      sender: { id: me.user, domain, client: message.sender, connection: me.connection },
      message,
    });
    return c.json(...legacyAnswer(result, domain));
  },
);

/** The unqualified answer to a send: the ClientMismatch and 201 or 412, or the error. */
export function legacyAnswer(result: Awaited<ReturnType<typeof sendInOwnedConversation>>, domain: string) {
  if (result.kind === 'no-conversation') throw new ApiError(galleyErrors.noConversation);
  if (result.kind === 'unknown-client') throw new ApiError(galleyErrors.unknownClient);
  if (result.kind === 'missing-legalhold-consent') throw new ApiError(legalholdErrors.missingConsent);
  return [toClientMismatch(result.status, domain), result.kind === 'sent' ? 201 : 412] as const;
}
