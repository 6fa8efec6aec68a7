import { z } from '@hono/zod-openapi';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { brigErrors } from '../../api/errors/brig.js';
import { json, jsonBody } from '../../api/schemas/common.js';
import { hasHiddenPerm } from '../../api/team-permissions.js';
import { database } from '../../db/client.js';
import { roleInTeam } from '../../galley/face.js';
import { selfRow } from '../users/self.js';
import { userStore } from '../users/user-store.js';
import { emailUpdate, requestEmailChange } from './email-change.js';
import { deps } from '../../api/deps.js';

/**
 * `PUT /users/{uid}/email`: a team owner or admin (re)starts the email change of a member of the
 * same team, themselves included: the new address is mailed an activation code.
 */
export const updateUserEmail = endpoint(
  {
    name: 'update-user-email',
    method: 'put',
    path: '/users/{uid}/email',
    request: { params: z.object({ uid: z.uuid() }), ...jsonBody(emailUpdate) },
    errors: [
      brigErrors.insufficientPermissions,
      brigErrors.userNotFound,
      brigErrors.invalidEmail,
      brigErrors.keyExists,
      brigErrors.emailManagedByScim,
    ],
    responses: {
      200: {
        description: 'Activation code mailed to the new address (nothing to do when it is the current one)',
        ...json(z.array(z.unknown()).max(0)),
      },
    },
  },
  async (c) => {
    const { uid } = c.req.valid('param');
    const { email } = c.req.valid('json');
    const db = database(c.env.DB);
    const me = await selfRow(c);
    const role = me.team === null ? undefined : await roleInTeam(db, me.team, me.id);
    if (role === undefined || !hasHiddenPerm(role, 'ChangeTeamMemberProfiles'))
      throw new ApiError(brigErrors.insufficientPermissions);
    const target = await userStore.byId(db, uid);
    if (target === undefined || target.status === 'deleted' || target.team !== me.team)
      throw new ApiError(brigErrors.userNotFound);
    await requestEmailChange(deps(c), target, email);
    return c.json([], 200);
  },
);
