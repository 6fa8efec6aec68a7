import { z } from '@hono/zod-openapi';
import type { InvitationRow } from './invitation-store.js';

export const teamRole = z.enum(['owner', 'admin', 'member', 'partner']).openapi('Role');

export const invitationSchema = z
  .object({
    id: z.uuid(),
    team: z.uuid(),
    email: z.string(),
    role: teamRole.optional(),
    name: z.string().optional(),
    created_at: z.string(),
    created_by: z.uuid().optional(),
    url: z.string().optional(),
  })
  .openapi('Invitation');

export function invitationJson(r: InvitationRow, url?: string): z.infer<typeof invitationSchema> {
  return {
    id: r.id,
    team: r.team,
    email: r.email,
    role: r.role,
    ...(r.name === null ? {} : { name: r.name }),
    created_at: new Date(r.createdAt).toISOString(),
    ...(r.createdBy === null ? {} : { created_by: r.createdBy }),
    ...(url === undefined ? {} : { url }),
  };
}
