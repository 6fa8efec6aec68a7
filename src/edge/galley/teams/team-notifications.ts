import { z } from '@hono/zod-openapi';
import { isUuidV1 } from '../../../shared/uuid-v1.js';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { galleyErrors } from '../../api/errors/galley.js';
import { json } from '../../api/schemas/common.js';
import { queuedNotificationList } from '../../api/schemas/notifications.js';
import { selfQualified } from '../../api/self.js';
import { database } from '../../db/client.js';
import { readTeamQueue } from './team-queue.js';
import { deps } from '../../api/deps.js';

/**
 * `GET /teams/notifications`: the caller's team queue (new members only). Unlike
 * `/notifications`, an unknown `since` is no error: the queue answers from that id's time on.
 */
export const getTeamNotifications = endpoint(
  {
    name: 'get-team-notifications',
    method: 'get',
    path: '/teams/notifications',
    request: {
      query: z.object({
        // Any well-formed UUID parses; one of another version is `invalid-notification-id`.
        since: z.guid().optional().openapi({ description: 'Notification id to start with in the response (UUIDv1)' }),
        size: z.coerce
          .number()
          .int()
          .min(1)
          .max(10000)
          .default(1000)
          .openapi({ description: 'Maximum number of events to return (1..10000; default: 1000)' }),
      }),
    },
    errors: [galleyErrors.invalidTeamNotificationId, galleyErrors.noTeam],
    responses: { 200: { description: 'Recently added team members', ...json(queuedNotificationList) } },
  },
  async (c) => {
    const { since, size } = c.req.valid('query');
    if (since !== undefined && !isUuidV1(since)) throw new ApiError(galleyErrors.invalidTeamNotificationId);
    const db = database(c.env.DB);
    const team = (await deps(c).users.account(selfQualified(c)))?.team;
    if (team === null || team === undefined) throw new ApiError(galleyErrors.noTeam);
    return c.json(await readTeamQueue(db, c.get('config'), team, since, size), 200);
  },
);
