import { z } from '@hono/zod-openapi';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { galleyErrors } from '../../api/errors/galley.js';
import { jsonBody } from '../../api/schemas/common.js';
import { self } from '../../api/self.js';
import { hasPerm } from '../../api/team-permissions.js';
import { requireReauth } from './reauth.js';
import { requireTeamMember } from './team-access.js';
import { teamStore } from './team-store.js';
import { removeMemberAccount } from './member-removal.js';
import { deps } from '../../api/deps.js';

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
    const { db } = deps(c);
    const role = await requireTeamMember(deps(c), self(c).user, tid);
    if (!hasPerm(role, 'RemoveTeamMember')) throw new ApiError(galleyErrors.operationDenied);
    const target = await teamStore.member(db, tid, uid);
    if (target === undefined) throw new ApiError(galleyErrors.noTeamMemberFound);
    if (target.role === 'owner' && role !== 'owner') throw new ApiError(galleyErrors.operationDenied);
    await requireReauth(deps(c), self(c).user, c.req.valid('json').password);
    await removeMemberAccount(deps(c), { team: tid, user: uid, origin: self(c) });
    return c.body(null, 202);
  },
);
