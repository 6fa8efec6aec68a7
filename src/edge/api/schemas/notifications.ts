import { z } from '@hono/zod-openapi';

/** A notification as clients read it: gundeck's streams and galley's team queue. */
export const queuedNotification = z
  .object({ id: z.uuid(), payload: z.array(z.record(z.string(), z.unknown())) })
  .openapi('QueuedNotification');

/** A page of notifications. */
export const queuedNotificationList = z
  .object({ notifications: z.array(queuedNotification), has_more: z.boolean(), time: z.string().optional() })
  .openapi('QueuedNotificationList');
