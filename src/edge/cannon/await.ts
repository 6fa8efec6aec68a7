import { z } from '@hono/zod-openapi';
import { endpoint } from '../api/endpoint.js';
import { commonErrors } from '../api/errors/common.js';
import { CLIENT_ID_PATTERN } from '../../shared/client-id.js';
import { upgradeToStream } from './upgrade.js';

/**
 * `GET /await`: the legacy websocket. Each new notification of the user arrives as a binary
 * `{id, transient, payload}` frame, except those caused by this connection's own requests.
 */
export const awaitNotifications = endpoint(
  {
    name: 'await-notifications',
    method: 'get',
    path: '/await',
    request: { query: z.object({ client: z.string().regex(CLIENT_ID_PATTERN).optional() }) },
    errors: [commonErrors.websocketRequired],
    responses: { 101: { description: 'Connection upgraded' } },
  },
  (c) => upgradeToStream(c, 'await', { client: c.req.valid('query').client }),
);
