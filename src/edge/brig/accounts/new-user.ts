import { z } from '@hono/zod-openapi';
import { locale } from '../../api/schemas/common.js';
import { ApiError } from '../../api/errors/api-error.js';
import { brigErrors } from '../../api/errors/brig.js';
import { commonErrors } from '../../api/errors/common.js';
import { baseProtocol } from '../users/user-json.js';
import { userAsset } from '../../api/schemas/user-asset.js';
import { isValidEmail } from '../users/user-store.js';

export const newTeam = z
  .object({
    name: z.string().min(1).max(256),
    icon: z.string().min(1),
    icon_key: z.string().min(1).max(256).optional(),
    currency: z.string().optional(),
  })
  .openapi('BindingNewTeamUser');

export const newUser = z
  .object({
    name: z.string().min(1).max(128),
    email: z.string().optional(),
    email_code: z.string().min(1).optional(),
    password: z.string().min(8).max(1024).optional(),
    label: z.string().optional(),
    locale: locale.optional(),
    accent_id: z.int().optional(),
    assets: z.array(userAsset).optional(),
    picture: z.array(z.unknown()).optional(),
    expires_in: z.int().min(1).max(604800).optional(),
    supported_protocols: z.array(baseProtocol).optional(),
    invitation_code: z.string().optional(),
    team_code: z.string().optional(),
    team: newTeam.optional(),
    managed_by: z.enum(['wire', 'scim']).optional(),
    sso_id: z.unknown().optional(),
    uuid: z.unknown().optional(),
    team_id: z.unknown().optional(),
    phone: z.unknown().optional(),
  })
  .openapi('NewUser');

export type NewUser = z.infer<typeof newUser>;

const bad = (message: string) => new ApiError(commonErrors.badRequest, message);

/** The rules a registration must meet before anything is looked up or written. */
export function validateNewUser(u: NewUser): void {
  if (u.phone !== undefined) throw new ApiError(brigErrors.invalidPhone);
  if (u.sso_id !== undefined || u.uuid !== undefined || u.team_id !== undefined)
    throw bad('sso_id, uuid and team_id are not allowed on public registration');
  if (u.managed_by !== undefined && u.managed_by !== 'wire') throw bad('managed_by must be wire');
  const origins = [u.invitation_code, u.team_code, u.team].filter((o) => o !== undefined);
  if (origins.length > 1) throw bad('invitation_code, team_code and team are mutually exclusive');
  if ((u.team !== undefined || u.team_code !== undefined) && u.password === undefined)
    throw bad('all team users must set a password on creation');
  if (u.expires_in !== undefined && u.email !== undefined) throw bad('Only users without an identity can expire');
  if (u.email !== undefined && !isValidEmail(u.email)) throw new ApiError(brigErrors.invalidEmail);
}
