import { z } from '@hono/zod-openapi';

/** What a Proteus send answers: the clients it found missing, redundant or deleted, and where delivery failed. */
const clientMap = z.record(z.string(), z.record(z.string(), z.array(z.string())));
export const messageSendingStatus = z
  .object({
    time: z.string(),
    missing: clientMap,
    redundant: clientMap,
    deleted: clientMap,
    failed_to_send: clientMap,
    failed_to_confirm_clients: clientMap,
  })
  .openapi('MessageSendingStatus');
