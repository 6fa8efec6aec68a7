import { z } from '@hono/zod-openapi';

/** A body of MLSMessages (`message/mls`), read as bytes by the handler. */
export const mlsBody = {
  required: true,
  content: { 'message/mls': { schema: z.string().openapi({ format: 'binary' }) } },
} as const;

/** The answer to a posted message or commit: the conversation events it caused, and when. */
export const mlsSent = z
  .object({ events: z.array(z.record(z.string(), z.unknown())), time: z.string() })
  .openapi('MlsMessageSent');
