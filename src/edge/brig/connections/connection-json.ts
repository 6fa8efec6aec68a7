import { z } from '@hono/zod-openapi';
import { qualifiedUserId } from '../../api/schemas/common.js';
import type { ConnectionRow } from './connection-book.js';

export const relation = z
  .enum(['accepted', 'blocked', 'pending', 'ignored', 'sent', 'cancelled', 'missing-legalhold-consent'])
  .openapi('Relation');

export const userConnection = z
  .object({
    from: z.uuid(),
    to: z.uuid(),
    qualified_to: qualifiedUserId,
    status: relation,
    last_update: z.string(),
    conversation: z.uuid().optional(),
    qualified_conversation: z.object({ id: z.uuid(), domain: z.string() }).optional(),
  })
  .openapi('UserConnection');
export type UserConnection = z.infer<typeof userConnection>;

export function connectionJson(r: ConnectionRow): UserConnection {
  return {
    from: r.fromUser,
    to: r.toUser,
    qualified_to: { id: r.toUser, domain: r.toDomain },
    status: r.status,
    last_update: new Date(r.lastUpdate).toISOString(),
    ...(r.convId === null || r.convDomain === null
      ? {}
      : { conversation: r.convId, qualified_conversation: { id: r.convId, domain: r.convDomain } }),
  };
}
