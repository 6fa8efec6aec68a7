import { z } from '@hono/zod-openapi';
import { endpoint, type Endpoint } from '../../api/endpoint.js';
import { galleyErrors } from '../../api/errors/galley.js';
import { json, jsonBody } from '../../api/schemas/common.js';
import { requireTeam } from '../teams/team-access.js';
import { changeFeature } from './change.js';
import { featureChange, featureNameParam, featurePatch, lockableFeature, lockStatus } from './schemas.js';
import { teamFeature } from './team-features.js';
import { deps } from '../../api/deps.js';

const params = z.object({ tid: z.uuid(), name: featureNameParam });
const errors = [galleyErrors.noTeam];

/** Back office and operators: any team, any feature; only the PUT of a locked feature is refused. */
const getFeatureInternal = endpoint(
  {
    name: 'iget-feature',
    method: 'get',
    path: '/i/teams/{tid}/features/{name}',
    request: { params },
    errors,
    responses: { 200: { description: 'The feature', ...json(lockableFeature) } },
  },
  async (c) => {
    const { tid, name } = c.req.valid('param');
    const { db } = deps(c);
    await requireTeam(deps(c), tid);
    return c.json(await teamFeature(db, c.get('config'), tid, name), 200);
  },
);

const putFeatureInternal = endpoint(
  {
    name: 'iput-feature',
    method: 'put',
    path: '/i/teams/{tid}/features/{name}',
    request: { params, ...jsonBody(featureChange.extend({ lockStatus: lockStatus.optional() })) },
    errors: [galleyErrors.noTeam, galleyErrors.featureLocked],
    responses: { 200: { description: 'The feature, changed', ...json(lockableFeature) } },
  },
  async (c) => {
    const { tid, name } = c.req.valid('param');
    const body = c.req.valid('json');
    const { db } = deps(c);
    await requireTeam(deps(c), tid);
    const patch = { status: body.status, lockStatus: body.lockStatus, config: body.config };
    // wire's setFeatureInternal: a locked feature stays as it is (409); its PATCH may change anything
    const o = { respectLock: true, requireConfig: false, viaTeamApi: false };
    return c.json(await changeFeature(c, db, tid, name, patch, o), 200);
  },
);

const patchFeatureInternal = endpoint(
  {
    name: 'ipatch-feature',
    method: 'patch',
    path: '/i/teams/{tid}/features/{name}',
    request: { params, ...jsonBody(featurePatch) },
    errors,
    responses: { 200: { description: 'The feature, changed', ...json(lockableFeature) } },
  },
  async (c) => {
    const { tid, name } = c.req.valid('param');
    const { db } = deps(c);
    await requireTeam(deps(c), tid);
    return c.json(
      await changeFeature(c, db, tid, name, c.req.valid('json'), { respectLock: false, requireConfig: false }),
      200,
    );
  },
);

const setFeatureLockInternal = endpoint(
  {
    name: 'iput-feature-lock-status',
    method: 'put',
    path: '/i/teams/{tid}/features/{name}/{lockStatus}',
    request: { params: params.extend({ lockStatus }) },
    errors,
    responses: {
      200: { description: 'The new lock status', ...json(z.object({ lockStatus }).openapi('LockStatusResponse')) },
    },
  },
  async (c) => {
    const { tid, name, lockStatus: lock } = c.req.valid('param');
    const { db } = deps(c);
    await requireTeam(deps(c), tid);
    await changeFeature(c, db, tid, name, { lockStatus: lock }, { respectLock: false, requireConfig: false });
    return c.json({ lockStatus: lock }, 200);
  },
);

export const featureInternalEndpoints: Endpoint[] = [
  getFeatureInternal,
  putFeatureInternal,
  patchFeatureInternal,
  setFeatureLockInternal,
];
