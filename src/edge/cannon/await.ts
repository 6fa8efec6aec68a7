import { z } from '@hono/zod-openapi';
import { endpoint } from '../api/endpoint.js';
import { ApiError } from '../api/errors/api-error.js';
import { commonErrors } from '../api/errors/common.js';
import { self } from '../api/self.js';
import { userStream } from '../events/publish.js';

/**
 * `GET /await`: the legacy websocket. Each new notification of the user arrives as a binary
 * `{id, transient, payload}` frame, except those caused by this connection's own requests.
 */
export const awaitNotifications = endpoint(
  {
    name: 'await-notifications',
    method: 'get',
    path: '/await',
    request: { query: z.object({ client: z.string().regex(/^[0-9a-f]{1,16}$/).optional() }) },
    errors: [commonErrors.websocketRequired],
    responses: { 101: { description: 'Connection upgraded' } },
  },
  async (c) => {
    if (c.req.header('upgrade')?.toLowerCase() !== 'websocket') throw new ApiError(commonErrors.websocketRequired);
    const me = self(c);
    const headers = new Headers(c.req.raw.headers);
    headers.set('x-socket-kind', 'await');
    headers.set('z-connection', me.connection);
    const client = c.req.valid('query').client;
    if (client === undefined) headers.delete('z-client');
    else headers.set('z-client', client);
    return userStream(c.env, me.user).fetch(new Request(c.req.raw.url, { headers }));
  },
);
