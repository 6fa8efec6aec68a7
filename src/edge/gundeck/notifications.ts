import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { ListResult } from '../../shared/notifications/types.js';
import { isUuidV1 } from '../../shared/uuid-v1.js';
import { CLIENT_ID_PATTERN } from '../../shared/client-id.js';
import type { AppEnv } from '../api/app-env.js';
import { endpoint } from '../api/endpoint.js';
import { ApiError } from '../api/errors/api-error.js';
import { gundeckErrors } from '../api/errors/gundeck.js';
import { json } from '../api/schemas/common.js';
import { queuedNotification, queuedNotificationList } from '../api/schemas/notifications.js';
import { self, selfQualified } from '../api/self.js';
import { userStream } from '../events/publish.js';
import { deps } from '../api/deps.js';

/** Server time at whole seconds, as gundeck reports it. */
const nowSeconds = () => `${new Date().toISOString().slice(0, 19)}Z`;

const clientId = z.string().regex(CLIENT_ID_PATTERN);
const listQuery = z.object({
  since: z.string().optional(),
  client: clientId.optional(),
  size: z.coerce.number().int().min(100).max(10000).default(1000),
});

/** Fetches a page of the caller's stream; asking with a client marks that client active. */
async function fetchPage(
  c: Context<AppEnv>,
  q: z.infer<typeof listQuery>,
  since: string | undefined,
): Promise<ListResult> {
  const me = self(c).user;
  if (q.client !== undefined) await deps(c).users.touchClient(selfQualified(c), q.client);
  const ttlSeconds = c.get('config').gundeck.settings.notificationTTL;
  return userStream(c.env, me).list({ since, client: q.client, size: q.size, ttlSeconds });
}

export const listNotifications = endpoint(
  {
    name: 'get-notifications',
    method: 'get',
    path: '/notifications',
    from: 3,
    request: { query: listQuery },
    errors: [gundeckErrors.invalidNotificationId, gundeckErrors.notificationsNotFound],
    responses: { 200: { description: 'Notifications after `since`', ...json(queuedNotificationList) } },
  },
  async (c) => {
    const q = c.req.valid('query');
    if (q.since !== undefined && !isUuidV1(q.since)) throw new ApiError(gundeckErrors.invalidNotificationId);
    const time = nowSeconds();
    const page = await fetchPage(c, q, q.since);
    if (!page.found) throw new ApiError(gundeckErrors.notificationsNotFound);
    return c.json({ notifications: page.notifications, has_more: page.hasMore, time }, 200);
  },
);

/** Before v3 an unknown `since` answers 404 with the whole stream, so the client can resync. */
export const listNotificationsV2 = endpoint(
  {
    name: 'get-notifications@v2',
    method: 'get',
    path: '/notifications',
    until: 3,
    request: { query: listQuery },
    responses: {
      200: { description: 'Notifications after `since`', ...json(queuedNotificationList) },
      404: { description: '`since` is unknown: every notification from the start', ...json(queuedNotificationList) },
    },
  },
  async (c) => {
    const q = c.req.valid('query');
    const time = nowSeconds();
    const valid = q.since === undefined || isUuidV1(q.since);
    const page = await fetchPage(c, q, valid ? q.since : undefined);
    const body = { notifications: page.notifications, has_more: page.hasMore, time };
    return valid && page.found ? c.json(body, 200) : c.json(body, 404);
  },
);

export const lastNotification = endpoint(
  {
    name: 'get-last-notification',
    method: 'get',
    path: '/notifications/last',
    request: { query: z.object({ client: clientId.optional() }) },
    errors: [gundeckErrors.notificationNotFound],
    responses: { 200: { description: 'The newest notification', ...json(queuedNotification) } },
  },
  async (c) => {
    const ttl = c.get('config').gundeck.settings.notificationTTL;
    const n = await userStream(c.env, self(c).user).last(c.req.valid('query').client, ttl);
    if (n === undefined) throw new ApiError(gundeckErrors.notificationNotFound);
    return c.json(n, 200);
  },
);

export const getNotification = endpoint(
  {
    name: 'get-notification-by-id',
    method: 'get',
    path: '/notifications/{id}',
    request: { params: z.object({ id: z.uuid() }), query: z.object({ client: clientId.optional() }) },
    errors: [gundeckErrors.notificationNotFound],
    responses: { 200: { description: 'The notification', ...json(queuedNotification) } },
  },
  async (c) => {
    const ttl = c.get('config').gundeck.settings.notificationTTL;
    const n = await userStream(c.env, self(c).user).get(c.req.valid('param').id, c.req.valid('query').client, ttl);
    if (n === undefined) throw new ApiError(gundeckErrors.notificationNotFound);
    return c.json(n, 200);
  },
);
