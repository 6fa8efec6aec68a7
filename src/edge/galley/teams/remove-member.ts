import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { galleyErrors } from '../../api/errors/galley.js';
import { jsonBody } from '../../api/schemas/common.js';
import { self, selfQualified } from '../../api/self.js';
import { checkUserPassword, userById } from '../../brig/face.js';
import type { Db } from '../../db/client.js';
import { hasPerm } from '../../api/team-permissions.js';
import { requireTeamMember } from './team-access.js';
import { teamStore } from './team-store.js';
import { removeMemberAccount } from './member-removal.js';

/** Destructive team operations need the caller's password again (users without one are SSO users). */
export async function requireReauth(c: Context<AppEnv>, db: Db, password: string | undefined): Promise<void> {
  const me = await userById(db, selfQualified(c));
  if (me === undefined || me.password === null) return;
  if (password === undefined || !(await checkUserPassword(c.env, db, c.get('config'), { user: me.id }, me, password)))
    throw new ApiError(galleyErrors.reauthRequired);
}

/**
 * `DELETE /teams/{tid}/members/{uid}`: owners and admins remove a member; in a binding team that
 * deletes the account. The team hears `team.member-leave` (only owners and admins with
 * limitedEventFanout on), and its admins get `member-leave` for each conversation the member was in.
 */
export const removeTeamMember = endpoint(
  {
    name: 'delete-team-member',
    method: 'delete',
    path: '/teams/{tid}/members/{uid}',
    request: {
      params: z.object({ tid: z.uuid(), uid: z.uuid() }),
      ...jsonBody(z.object({ password: z.string().min(6).max(1024).optional() }).openapi('TeamMemberDeleteData')),
    },
    errors: [
      galleyErrors.noTeamMember,
      galleyErrors.operationDenied,
      galleyErrors.reauthRequired,
      galleyErrors.noTeamMemberFound,
    ],
    responses: { 202: { description: 'Team member scheduled for deletion' } },
  },
  async (c) => {
    const { tid, uid } = c.req.valid('param');
    const config = c.get('config');
    const { db, role } = await requireTeamMember(c, tid);
    if (!hasPerm(role, 'RemoveTeamMember')) throw new ApiError(galleyErrors.operationDenied);
    const target = await teamStore.member(db, tid, uid);
    if (target === undefined) throw new ApiError(galleyErrors.noTeamMemberFound);
    if (target.role === 'owner' && role !== 'owner') throw new ApiError(galleyErrors.operationDenied);
    await requireReauth(c, db, c.req.valid('json').password);
    await removeMemberAccount(c.env, db, config, { team: tid, user: uid, origin: self(c) });
    return c.body(null, 202);
  },
);
