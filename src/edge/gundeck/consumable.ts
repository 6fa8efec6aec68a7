import { z } from '@hono/zod-openapi';
import { endpoint } from '../api/endpoint.js';
import { CLIENT_ID_PATTERN } from '../../shared/client-id.js';
import { userStream } from '../events/publish.js';

/** `POST /i/users/{uid}/clients/{cid}/consumable-notifications`: sets up the client's durable queue. */
export const setupConsumableNotifications = endpoint(
  {
    name: 'register-consumable-notifications-client',
    method: 'post',
    path: '/i/users/{uid}/clients/{cid}/consumable-notifications',
    request: { params: z.object({ uid: z.uuid(), cid: z.string().regex(CLIENT_ID_PATTERN) }) },
    responses: { 200: { description: 'The queue exists' } },
  },
  async (c) => {
    const { uid, cid } = c.req.valid('param');
    await userStream(c.env, uid).enableQueue(cid);
    return c.body(null, 200);
  },
);
