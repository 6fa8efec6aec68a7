import { z } from '@hono/zod-openapi';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { brigErrors } from '../../api/errors/brig.js';
import { json } from '../../api/schemas/common.js';
import { database } from '../../db/client.js';
import { federationWith } from './federating.js';
import { remotesStore } from './remotes-store.js';

const remoteTeam = z.object({ team_id: z.uuid() }).openapi('FederationRemoteTeam');

/**
 * `POST /i/federation/remotes/{domain}/teams`: one more team of the remote that this backend
 * federates with, for a remote restricted by team (533 when it is unknown or allows all teams).
 */
export const addFederationRemoteTeam = endpoint(
  {
    name: 'add-federation-remote-team',
    method: 'post',
    path: '/i/federation/remotes/{domain}/teams',
    request: { params: z.object({ domain: z.string() }), body: { required: true, ...json(remoteTeam) } },
    errors: [brigErrors.federationRemoteNotRestricted],
    responses: { 200: { description: 'The team was added' } },
  },
  async (c) => {
    const { domain } = c.req.valid('param');
    const { team_id } = c.req.valid('json');
    const db = database(c.env.DB);
    const remote = await federationWith(c.get('config'), db, domain);
    if (remote?.restriction.tag !== 'restrict_by_team') throw new ApiError(brigErrors.federationRemoteNotRestricted);
    await remotesStore.addTeam(db, domain, team_id);
    return c.body(null, 200);
  },
);

/** `GET /i/federation/remotes/{domain}/teams`: the remote's teams this backend federates with. */
export const getFederationRemoteTeams = endpoint(
  {
    name: 'get-federation-remote-teams',
    method: 'get',
    path: '/i/federation/remotes/{domain}/teams',
    request: { params: z.object({ domain: z.string() }) },
    responses: { 200: { description: 'The teams', ...json(z.array(remoteTeam)) } },
  },
  async (c) => {
    const teams = await remotesStore.teams(database(c.env.DB), c.req.valid('param').domain);
    return c.json(
      teams.map((team_id) => ({ team_id })),
      200,
    );
  },
);

/** `DELETE /i/federation/remotes/{domain}/teams/{team}`: federates no more with that team. */
export const deleteFederationRemoteTeam = endpoint(
  {
    name: 'delete-federation-remote-team',
    method: 'delete',
    path: '/i/federation/remotes/{domain}/teams/{team}',
    request: { params: z.object({ domain: z.string(), team: z.uuid() }) },
    responses: { 200: { description: 'Removed (or was not listed)' } },
  },
  async (c) => {
    const { domain, team } = c.req.valid('param');
    await remotesStore.removeTeam(database(c.env.DB), domain, team);
    return c.body(null, 200);
  },
);
