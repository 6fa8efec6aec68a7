import { z } from '@hono/zod-openapi';

export const queuedNotification = z
  .object({ id: z.uuid(), payload: z.array(z.record(z.string(), z.unknown())) })
  .openapi('QueuedNotification');

export const queuedNotificationList = z
  .object({ notifications: z.array(queuedNotification), has_more: z.boolean(), time: z.string().optional() })
  .openapi('QueuedNotificationList');

/** Server time at whole seconds, as gundeck reports it. */
export const nowSeconds = () => `${new Date().toISOString().slice(0, 19)}Z`;
