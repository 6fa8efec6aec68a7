import { z } from '@hono/zod-openapi';
import type { TeamMemberRow, TeamRow } from './team-store.js';
import { permissionsOf } from '../../api/team-permissions.js';
import { legalholdStatus } from '../../api/schemas/legalhold-status.js';

export const teamSchema = z
  .object({
    id: z.uuid(),
    creator: z.uuid(),
    name: z.string(),
    icon: z.string(),
    icon_key: z.string().optional(),
    splash_screen: z.string().optional(),
    binding: z.literal(true),
  })
  .openapi('Team');

export function teamJson(
  t: Pick<TeamRow, 'id' | 'creator' | 'name' | 'icon' | 'iconKey' | 'splashScreen'>,
): z.infer<typeof teamSchema> {
  return {
    id: t.id,
    creator: t.creator,
    name: t.name,
    icon: t.icon,
    ...(t.iconKey === null ? {} : { icon_key: t.iconKey }),
    ...(t.splashScreen === null ? {} : { splash_screen: t.splashScreen }),
    binding: true,
  };
}

export const permissionsSchema = z.object({ self: z.int().min(0), copy: z.int().min(0) }).openapi('Permissions');

export const teamMemberSchema = z
  .object({
    user: z.uuid(),
    permissions: permissionsSchema.optional(),
    created_by: z.uuid().optional(),
    created_at: z.string().optional(),
    legalhold_status: legalholdStatus.optional(),
  })
  .openapi('TeamMember');

/** A member as the API shows it; `withPermissions` is false for callers who may not see them. */
export function teamMemberJson(m: TeamMemberRow, withPermissions: boolean): z.infer<typeof teamMemberSchema> {
  return {
    user: m.user,
    ...(withPermissions ? { permissions: permissionsOf(m.role) } : {}),
    ...(m.invitedBy === null ? {} : { created_by: m.invitedBy }),
    ...(m.invitedAt === null ? {} : { created_at: new Date(m.invitedAt).toISOString() }),
    legalhold_status: m.legalholdStatus ?? 'no_consent',
  };
}
