import { z } from '@hono/zod-openapi';
import { qualifiedUserId } from '../../api/schemas/common.js';
import {
  access,
  accessRole,
  accessRoleLegacy,
  addPermission,
  DEFAULT_ACCESS,
  DEFAULT_ACCESS_ROLE,
  fromLegacyAccessRole,
} from './access.js';
import { ROLE_ADMIN } from './roles.js';

export const newConv = z
  .object({
    users: z.array(z.uuid()).optional(),
    qualified_users: z.array(qualifiedUserId).optional(),
    name: z.string().min(1).max(256).optional(),
    access: z.array(access).optional(),
    access_role: z.union([z.array(accessRole), accessRoleLegacy]).optional(),
    access_role_v2: z.array(accessRole).optional(),
    team: z.object({ teamid: z.uuid(), managed: z.boolean() }).optional(),
    message_timer: z.int().min(0).nullable().optional(),
    receipt_mode: z.int().nullable().optional(),
    conversation_role: z.string().min(2).max(128).optional(),
    protocol: z.enum(['proteus', 'mls']).optional(),
    group_conv_type: z.enum(['group_conversation', 'channel']).optional(),
    cells: z.boolean().optional(),
    add_permission: addPermission.optional(),
    skip_creator: z.boolean().optional(),
  })
  .openapi('NewConv');
export type NewConv = z.infer<typeof newConv>;

/** The access roles a request names: `access_role_v2` wins; a legacy value maps to its list (v0–v2). */
export function requestedAccessRoles(body: NewConv) {
  if (body.access_role_v2 !== undefined) return body.access_role_v2;
  if (typeof body.access_role === 'string') return fromLegacyAccessRole(body.access_role);
  return body.access_role ?? DEFAULT_ACCESS_ROLE;
}

export function requestedAccess(body: NewConv): string[] {
  return body.access === undefined || body.access.length === 0 ? DEFAULT_ACCESS : [...new Set(body.access)];
}

export const invitedRole = (body: NewConv) => body.conversation_role ?? ROLE_ADMIN;
