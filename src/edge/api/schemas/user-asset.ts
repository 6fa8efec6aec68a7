import { z } from '@hono/zod-openapi';

/** A profile picture of a user (or a bot, or a service), as an asset key. */
export const userAsset = z
  .object({
    key: z.string().min(1),
    type: z.literal('image'),
    size: z.enum(['preview', 'complete']).optional(),
  })
  .openapi('UserAsset');
