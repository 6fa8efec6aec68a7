import { z } from '@hono/zod-openapi';
import { endpoint } from '../api/endpoint.js';
import { commonErrors } from '../api/errors/common.js';
import { CLIENT_ID_PATTERN } from '../../shared/client-id.js';
import { upgradeToStream } from './upgrade.js';

const clientId = z.string().regex(CLIENT_ID_PATTERN);

/**
 * `GET /events` (v8+): with a client that consumes notifications, its durable queue (backlog
 * until acked, the `synchronization` marker `sync_marker` names if given, then live events);
 * without one, live events only.
 */
export const consumeEvents = endpoint(
  {
    name: 'consume-events',
    method: 'get',
    path: '/events',
    from: 8,
    request: {
      query: z.object({
        client: clientId.optional(),
        /** The seed's name for the same parameter. */
        client_id: clientId.optional(),
        sync_marker: z.string().min(1).max(256).optional(),
      }),
    },
    errors: [commonErrors.websocketRequired],
    responses: { 101: { description: 'Connection upgraded' } },
  },
  (c) => {
    const q = c.req.valid('query');
    return upgradeToStream(c, 'events', { client: q.client ?? q.client_id, marker: q.sync_marker });
  },
);
