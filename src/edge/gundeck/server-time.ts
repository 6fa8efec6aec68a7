import { z } from '@hono/zod-openapi';
import { endpoint } from '../api/endpoint.js';
import { json } from '../api/schemas/common.js';

/** `GET /time` (v9): the server's UTC time to the second, `YYYY-MM-DDTHH:MM:SSZ`. */
export const getServerTime = endpoint(
  {
    name: 'get-server-time',
    method: 'get',
    path: '/time',
    from: 9,
    responses: {
      200: { description: 'The current server time', ...json(z.object({ time: z.string() }).openapi('ServerTime')) },
    },
  },
  (c) => c.json({ time: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z') }, 200),
);
