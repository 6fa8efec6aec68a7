// Several notifications to one backend in one call, for a backend of this kind: wire-server has
// no such RPC (a remote without it answers 404 and gets one call per notification). The remote
// takes them in the order they come, as if each were its own call, and answers each one's outcome.
import { z } from '@hono/zod-openapi';
import { rpcContract } from './contract.js';

/** The most notifications in one call. */
export const MAX_BATCH = 200;

const notificationBatch = z
  .object({
    notifications: z
      .array(z.object({ component: z.enum(['brig', 'galley', 'cargohold']), rpc: z.string(), body: z.unknown() }))
      .min(1)
      .max(MAX_BATCH),
  })
  .openapi('NotificationBatch');

/** Taken, or refused with the error a call of its own would have got. */
const outcome = z.union([
  z.object({ taken: z.literal(true) }),
  z.object({ code: z.int(), label: z.string(), message: z.string() }).loose(),
]);
export type BatchOutcome = z.infer<typeof outcome>;

/**
 * One outcome per notification taken in order; the list ends early at the first server error
 * (its outcome included): that one and those after it were not taken.
 */
export const notificationBatchOutcomes = z.object({ outcomes: z.array(outcome) }).openapi('NotificationBatchOutcomes');

/** The batch RPC: several notifications to one backend in one call. */
export const notificationBatchRpc = rpcContract({
  component: 'galley',
  rpc: 'svc-notification-batch',
  request: notificationBatch,
  response: notificationBatchOutcomes,
});
