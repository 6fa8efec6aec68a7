import { z } from '@hono/zod-openapi';
import { endpoint } from '../../api/endpoint.js';
import { galleyErrors } from '../../api/errors/galley.js';
import { mlsErrors } from '../../api/errors/mls.js';
import { jsonBody } from '../../api/schemas/common.js';
import { convParams } from '../conversations/read-routes.js';
import { changed, updated } from '../conversations/updates.js';

/**
 * `PUT /conversations/{cnv_domain}/{cnv}/protocol`: a team conversation moves from Proteus to
 * mixed (it gets its MLS group id, epoch 0) and from mixed to MLS once the migration criteria are
 * met (400 `mls-migration-criteria-not-satisfied`); the same protocol again changes nothing (204),
 * any other move is 403 `invalid-protocol-transition`.
 */
export const updateConversationProtocol = endpoint(
  {
    name: 'update-conversation-protocol',
    method: 'put',
    path: '/conversations/{cnv_domain}/{cnv}/protocol',
    from: 5,
    request: {
      params: convParams,
      ...jsonBody(z.object({ protocol: z.enum(['proteus', 'mixed', 'mls']) }).openapi('ProtocolUpdate')),
    },
    errors: [
      galleyErrors.noConversation,
      galleyErrors.actionDenied,
      galleyErrors.invalidProtocolTransition,
      mlsErrors.mlsMigrationCriteriaNotSatisfied,
    ],
    responses: changed,
  },
  (c) => updated(c, { kind: 'protocol', protocol: c.req.valid('json').protocol }),
);
