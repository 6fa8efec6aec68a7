import { z } from '@hono/zod-openapi';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { galleyErrors } from '../../api/errors/galley.js';
import { json, jsonBody } from '../../api/schemas/common.js';
import { self } from '../../api/self.js';
import { hasPerm } from '../../api/team-permissions.js';
import { database } from '../../db/client.js';
import { requireTeamMember } from './team-access.js';
import { teamJson, teamSchema } from './team-json.js';
import { teamStore } from './team-store.js';
import { deps } from '../../api/deps.js';

// The team routes of v0-v3 that wire-server still answers. Every team is a binding one (made with
// its owner's account, joined by invitation), so creating a team here or adding a member to one
// is refused, as wire-server refuses it.

/** `POST /teams` (until v4): non-binding teams are not made any more. */
export const createNonBindingTeam = endpoint(
  {
    name: 'create-non-binding-team',
    method: 'post',
    path: '/teams',
    until: 4,
    request: jsonBody(
      z
        .object({ name: z.string().min(1).max(256), icon: z.string().min(1).max(256), icon_key: z.string().optional() })
        .openapi('NonBindingNewTeam'),
    ),
    errors: [galleyErrors.invalidActions],
    responses: { 201: { description: 'Never: non-binding teams are not supported' } },
  },
  () => {
    throw new ApiError(galleyErrors.invalidActions);
  },
);

/** `GET /teams` (until v4): the caller's team, in a list. */
export const getTeams = endpoint(
  {
    name: 'get-teams',
    method: 'get',
    path: '/teams',
    until: 4,
    responses: {
      200: {
        description: 'The caller’s team, if any',
        ...json(z.object({ teams: z.array(teamSchema), has_more: z.boolean() }).openapi('TeamList')),
      },
    },
  },
  async (c) => {
    const teams = await teamStore.ofUser(database(c.env.DB), self(c).user);
    return c.json({ teams: teams.map(teamJson), has_more: false }, 200);
  },
);

/** `POST /teams/{tid}/members` (until v4): who may add members learns that teams are invitation-only. */
export const addTeamMember = endpoint(
  {
    name: 'add-team-member',
    method: 'post',
    path: '/teams/{tid}/members',
    until: 4,
    request: {
      params: z.object({ tid: z.uuid() }),
      ...jsonBody(
        z
          .object({
            member: z.object({
              user: z.uuid(),
              permissions: z.object({ self: z.int(), copy: z.int() }),
            }),
          })
          .openapi('NewTeamMember'),
      ),
    },
    errors: [galleyErrors.noTeamMember, galleyErrors.operationDenied, galleyErrors.bindingTeam],
    responses: { 200: { description: 'Never: members join by invitation' } },
  },
  async (c) => {
    const role = await requireTeamMember(deps(c), self(c).user, c.req.valid('param').tid);
    if (!hasPerm(role, 'AddTeamMember'))
      throw new ApiError(galleyErrors.operationDenied, 'Insufficient permissions (missing AddTeamMember)');
    throw new ApiError(galleyErrors.bindingTeam);
  },
);
