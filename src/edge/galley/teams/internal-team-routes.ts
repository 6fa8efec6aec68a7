import { z } from '@hono/zod-openapi';
import { endpoint, type Endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { galleyErrors } from '../../api/errors/galley.js';
import { json, jsonBody } from '../../api/schemas/common.js';
import { removeTeam } from './delete-team.js';
import { requireTeam } from './team-access.js';
import { teamJson, teamMemberJson, teamMemberSchema, teamSchema } from './team-json.js';
import { teamStore } from './team-store.js';
import { deps } from '../../api/deps.js';

// galley's internal team API, for operators and the back office (wire's /i/teams/...).

const params = { params: z.object({ tid: z.uuid() }) };
const teamStatus = z.enum(['active', 'suspended']);

/** `GET /i/teams/{tid}`: the team and its status (wire's TeamData). */
const getTeamInternal = endpoint(
  {
    name: 'get-team-internal',
    method: 'get',
    path: '/i/teams/{tid}',
    request: params,
    errors: [galleyErrors.noTeam],
    responses: {
      200: {
        description: 'The team and its status',
        ...json(z.object({ team: teamSchema, status: z.string() }).openapi('TeamData')),
      },
    },
  },
  async (c) => {
    const { tid } = c.req.valid('param');
    const { db } = deps(c);
    await requireTeam(deps(c), tid);
    const team = (await teamStore.byId(db, tid))!;
    return c.json({ team: teamJson(team), status: team.status }, 200);
  },
);

/** `GET /i/teams/{tid}/members?maxResults=`: members with their permissions. */
const getTeamMembersInternal = endpoint(
  {
    name: 'get-team-members-internal',
    method: 'get',
    path: '/i/teams/{tid}/members',
    request: { ...params, query: z.object({ maxResults: z.coerce.number().int().min(1).max(2000).optional() }) },
    errors: [galleyErrors.noTeam],
    responses: {
      200: {
        description: 'The members (up to maxResults)',
        ...json(z.object({ members: z.array(teamMemberSchema), hasMore: z.boolean() })),
      },
    },
  },
  async (c) => {
    const { tid } = c.req.valid('param');
    const max = c.req.valid('query').maxResults ?? 2000;
    const { db } = deps(c);
    await requireTeam(deps(c), tid);
    const rows = await teamStore.members(db, tid, max + 1);
    const members = rows.slice(0, max).map((m) => teamMemberJson(m, true));
    return c.json({ members, hasMore: rows.length > max }, 200);
  },
);

/** `PUT /i/teams/{tid}/status`: suspends a team or makes it active again (as wire, a status only). */
const putTeamStatus = endpoint(
  {
    name: 'put-team-status',
    method: 'put',
    path: '/i/teams/{tid}/status',
    request: { ...params, ...jsonBody(z.object({ status: teamStatus })) },
    errors: [galleyErrors.noTeam, galleyErrors.invalidTeamStatusUpdate],
    responses: { 200: { description: 'Status set' } },
  },
  async (c) => {
    const { tid } = c.req.valid('param');
    const { status } = c.req.valid('json');
    const { db } = deps(c);
    await requireTeam(deps(c), tid);
    const before = (await teamStore.byId(db, tid))!.status;
    if (before !== 'active' && before !== 'suspended') throw new ApiError(galleyErrors.invalidTeamStatusUpdate);
    if (before !== status) await teamStore.update(db, tid, { status }).run();
    return c.body(null, 200);
  },
);

/** `DELETE /i/teams/{tid}`: deletes the team, its conversations and its members' accounts. */
const deleteTeamInternal = endpoint(
  {
    name: 'delete-team-internal',
    method: 'delete',
    path: '/i/teams/{tid}',
    request: params,
    errors: [galleyErrors.noTeam],
    responses: { 202: { description: 'Team deleted' } },
  },
  async (c) => {
    const { tid } = c.req.valid('param');
    const { db } = deps(c);
    await requireTeam(deps(c), tid);
    const creator = (await teamStore.byId(db, tid))!.creator;
    await removeTeam(deps(c), tid, { id: creator, domain: deps(c).domain });
    return c.body(null, 202);
  },
);

export const teamInternalEndpoints: Endpoint[] = [
  getTeamInternal,
  getTeamMembersInternal,
  putTeamStatus,
  deleteTeamInternal,
];
