import { z } from '@hono/zod-openapi';

export const access = z.enum(['private', 'invite', 'link', 'code']).openapi('Access');
export const accessRole = z.enum(['team_member', 'non_team_member', 'guest', 'service']).openapi('AccessRole');
export const accessRoleLegacy = z.enum(['private', 'team', 'activated', 'non_activated']).openapi('AccessRoleLegacy');
export type AccessRole = z.infer<typeof accessRole>;
/** Who may add members to a channel besides its admins and the team's channel managers. */
export const addPermission = z.enum(['admins', 'everyone']).openapi('AddPermission');

export const DEFAULT_ACCESS = ['invite'];
export const DEFAULT_ACCESS_ROLE: AccessRole[] = ['team_member', 'non_team_member', 'service'];

const LEGACY: Array<[z.infer<typeof accessRoleLegacy>, AccessRole[]]> = [
  ['private', []],
  ['team', ['team_member']],
  ['activated', ['team_member', 'non_team_member', 'service']],
  ['non_activated', ['team_member', 'non_team_member', 'guest', 'service']],
];

/** The legacy single value (v0–v2, and every event): the first whose roles cover the list. */
export function toLegacyAccessRole(roles: readonly string[]): z.infer<typeof accessRoleLegacy> {
  return LEGACY.find(([, covered]) => roles.every((r) => covered.includes(r as AccessRole)))?.[0] ?? 'non_activated';
}

export function fromLegacyAccessRole(legacy: z.infer<typeof accessRoleLegacy>): AccessRole[] {
  return LEGACY.find(([name]) => name === legacy)![1];
}
