import { z } from '@hono/zod-openapi';
import { type QualifiedId, qualifiedUserId } from '../../api/schemas/common.js';

/** A body of MLSMessages (`message/mls`), read as bytes by the handler. */
export const mlsBody = {
  required: true,
  content: { 'message/mls': { schema: z.string().openapi({ format: 'binary' }) } },
} as const;

/**
 * The answer to a posted message or commit: the conversation events it caused, and when; users
 * of backends that are not taking notifications now (theirs wait in the queue) as `failed_to_send`.
 */
export const mlsSent = z
  .object({
    events: z.array(z.record(z.string(), z.unknown())),
    time: z.string(),
    failed_to_send: z.array(qualifiedUserId).optional(),
  })
  .openapi('MlsMessageSent');

/** `failed_to_send` when some users' backends are not taking notifications, else nothing. */
export const failedToSend = (users: readonly QualifiedId[]) =>
  users.length === 0 ? {} : { failed_to_send: [...users] };
