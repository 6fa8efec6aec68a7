import { z } from '@hono/zod-openapi';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { galleyErrors } from '../../api/errors/galley.js';
import { json, jsonBody } from '../../api/schemas/common.js';
import { self } from '../../api/self.js';
import { database } from '../../db/client.js';
import { commitChange } from '../../effects/commit-change.js';
import { publishEffect } from '../../events/publish.js';
import { teamEvent } from '../../events/team-events.js';
import { requireTeamMember } from './team-access.js';
import { hasPerm } from '../../api/team-permissions.js';
import { teamJson, teamSchema } from './team-json.js';
import { teamStore } from './team-store.js';
import { deps } from '../../api/deps.js';

const params = z.object({ tid: z.uuid() });
const icon = z.string().min(1).max(256);

/** `GET /teams/{tid}`: members see their team; to everyone else it does not exist. */
export const getTeam = endpoint(
  {
    name: 'get-team',
    method: 'get',
    path: '/teams/{tid}',
    request: { params },
    errors: [galleyErrors.noTeam],
    responses: { 200: { description: 'The team', ...json(teamSchema) } },
  },
  async (c) => {
    const { tid } = c.req.valid('param');
    const db = database(c.env.DB);
    const team = await teamStore.byId(db, tid);
    if (team === undefined || (await teamStore.roleOf(db, tid, self(c).user)) === undefined)
      throw new ApiError(galleyErrors.noTeam);
    return c.json(teamJson(team), 200);
  },
);

/** `PUT /teams/{tid}`: owners and admins (SetTeamData) change name, icon, icon key, splash screen. */
export const updateTeam = endpoint(
  {
    name: 'update-team',
    method: 'put',
    path: '/teams/{tid}',
    request: {
      params,
      ...jsonBody(
        z
          .object({
            name: z.string().min(1).max(256).optional(),
            icon: icon.optional(),
            icon_key: icon.optional(),
            splash_screen: icon.optional(),
          })
          .openapi('TeamUpdateData'),
      ),
    },
    errors: [galleyErrors.noTeamMember, galleyErrors.operationDenied],
    responses: { 200: { description: 'Team updated' } },
  },
  async (c) => {
    const { tid } = c.req.valid('param');
    const body = c.req.valid('json');
    const { db } = deps(c);
    const role = await requireTeamMember(deps(c), self(c).user, tid);
    if (!hasPerm(role, 'SetTeamData'))
      throw new ApiError(galleyErrors.operationDenied, 'Insufficient permissions (missing SetTeamData)');
    const members = await teamStore.memberIds(db, tid, c.get('config').galley.settings.maxTeamSize);
    await commitChange(c.env, c.get('config'), {
      statements: [
        teamStore.update(db, tid, {
          ...(body.name === undefined ? {} : { name: body.name }),
          ...(body.icon === undefined ? {} : { icon: body.icon }),
          ...(body.icon_key === undefined ? {} : { iconKey: body.icon_key }),
          ...(body.splash_screen === undefined ? {} : { splashScreen: body.splash_screen }),
        }),
      ],
      effects: [
        publishEffect(
          members.map((user) => ({ user })),
          teamEvent('team.update', tid, body),
          { origin: self(c) },
        ),
      ],
    });
    return c.body(null, 200);
  },
);

export const getTeamSize = endpoint(
  {
    name: 'get-team-size',
    method: 'get',
    path: '/teams/{tid}/size',
    request: { params },
    errors: [galleyErrors.noTeamMember],
    responses: {
      200: {
        description: 'Number of team members',
        ...json(z.object({ teamSize: z.int().min(0) }).openapi('TeamSize')),
      },
    },
  },
  async (c) => {
    const { tid } = c.req.valid('param');
    const { db } = deps(c);
    await requireTeamMember(deps(c), self(c).user, tid);
    return c.json({ teamSize: await teamStore.size(db, tid) }, 200);
  },
);
