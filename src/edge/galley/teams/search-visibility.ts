import { z } from '@hono/zod-openapi';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { galleyErrors } from '../../api/errors/galley.js';
import { json, jsonBody } from '../../api/schemas/common.js';
import { teamFeature } from '../features/team-features.js';
import { requireFeatureAdmin, requireTeamMember } from './team-access.js';
import { teamStore } from './team-store.js';
import { deps } from '../../api/deps.js';
import { self } from '../../api/self.js';

const params = z.object({ tid: z.uuid() });
const view = z
  .object({ search_visibility: z.enum(['standard', 'no-name-outside-team']) })
  .openapi('TeamSearchVisibilityView');

export const getSearchVisibility = endpoint(
  {
    name: 'get-search-visibility',
    method: 'get',
    path: '/teams/{tid}/search-visibility',
    request: { params },
    errors: [galleyErrors.noTeamMember],
    responses: { 200: { description: "The team's search visibility", ...json(view) } },
  },
  async (c) => {
    const { tid } = c.req.valid('param');
    const { db } = deps(c);
    await requireTeamMember(deps(c), self(c).user, tid);
    return c.json({ search_visibility: (await teamStore.byId(db, tid))!.searchVisibility }, 200);
  },
);

/** Owners and admins choose it, while the team's searchVisibility feature is on. */
export const setSearchVisibility = endpoint(
  {
    name: 'set-search-visibility',
    method: 'put',
    path: '/teams/{tid}/search-visibility',
    request: { params, ...jsonBody(view) },
    errors: [galleyErrors.noTeamMember, galleyErrors.operationDenied, galleyErrors.teamSearchVisibilityNotEnabled],
    responses: { 204: { description: 'Search visibility set' } },
  },
  async (c) => {
    const { tid } = c.req.valid('param');
    const { db } = deps(c);
    await requireFeatureAdmin(deps(c), self(c).user, tid);
    if ((await teamFeature(db, c.get('config'), tid, 'searchVisibility')).status !== 'enabled')
      throw new ApiError(galleyErrors.teamSearchVisibilityNotEnabled);
    await teamStore.update(db, tid, { searchVisibility: c.req.valid('json').search_visibility }).run();
    return c.body(null, 204);
  },
);
