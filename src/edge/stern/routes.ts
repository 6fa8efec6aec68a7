import { z } from '@hono/zod-openapi';
import type { Endpoint } from '../api/endpoint.js';
import { endpoint } from '../api/endpoint.js';
import { ApiError } from '../api/errors/api-error.js';
import { commonErrors } from '../api/errors/common.js';
import { json } from '../api/schemas/common.js';
import { sternAccountEndpoints } from './account-routes.js';
import { type Intra, passOn } from './intra.js';
import { sternTeamEndpoints } from './team-routes.js';

// The back office (wire's stern): customer support's routes at the root of the internal listener,
// behind basic auth (see basic-auth.ts), each a call of a component's internal API.

const userId = z.object({ uid: z.uuid() });
const feature = z.object({ tid: z.uuid(), feature: z.string().min(1) });
const accounts = { 200: { description: "The accounts (wire's UserAccount: the user and its status)" } };
const passedOn = { 200: { description: "The component's answer" } };

/** Features whose status alone is set (`?status=`); the others take a whole `{status, config}` body. */
const STATUS_ONLY = new Set([
  'legalhold',
  'sso',
  'searchVisibility',
  'validateSAMLemails',
  'digitalSignatures',
  'fileSharing',
  'outlookCalIntegration',
  'domainRegistration',
  'conferenceCalling',
]);

function userStatus(intra: Intra, name: string, status: 'suspended' | 'active'): Endpoint {
  return endpoint(
    {
      name,
      auth: 'none', // basic auth, checked at the ingress
      method: 'post',
      path: `/users/{uid}/${status === 'active' ? 'unsuspend' : 'suspend'}`,
      request: { params: userId },
      responses: passedOn,
    },
    async (c) => passOn(await intra.internal(c, 'PUT', `/i/users/${c.req.valid('param').uid}/status`, { status })),
  );
}

function lookup(intra: Intra, by: 'email' | 'ids' | 'handles'): Endpoint {
  return endpoint(
    {
      name: `users-by-${by}`,
      auth: 'none',
      method: 'get',
      path: `/users/by-${by}`,
      request: { query: z.object({ [by]: z.string().min(1) }) },
      responses: accounts,
    },
    async (c) => {
      const value = (c.req.valid('query') as Record<string, string>)[by]!;
      return passOn(await intra.internal(c, 'GET', `/i/users?${new URLSearchParams({ [by]: value })}`));
    },
  );
}

export function sternEndpoints(intra: Intra): Endpoint[] {
  const getFeature = endpoint(
    {
      name: 'stern-get-feature',
      auth: 'none',
      method: 'get',
      path: '/teams/{tid}/features/{feature}',
      request: { params: feature },
      responses: passedOn,
    },
    async (c) => {
      const { tid, feature: name } = c.req.valid('param');
      return passOn(await intra.internal(c, 'GET', `/i/teams/${tid}/features/${name}`));
    },
  );

  /** `?status=` for status-only features (conferenceCalling also takes wire's `ttl`, which is ignored); a body for the others. */
  const putFeature = endpoint(
    {
      name: 'stern-put-feature',
      auth: 'none',
      method: 'put',
      path: '/teams/{tid}/features/{feature}',
      request: {
        params: feature,
        query: z.object({ status: z.enum(['enabled', 'disabled']).optional(), ttl: z.string().optional() }),
        body: { required: false, ...json(z.looseObject({ status: z.enum(['enabled', 'disabled']) })) },
      },
      responses: passedOn,
    },
    async (c) => {
      const { tid, feature: name } = c.req.valid('param');
      const { status } = c.req.valid('query');
      const path = `/i/teams/${tid}/features/${name}`;
      if (STATUS_ONLY.has(name)) {
        if (status === undefined) throw new ApiError(commonErrors.badRequest, 'status is required');
        return passOn(await intra.internal(c, 'PATCH', path, { status }));
      }
      const body = c.req.valid('json');
      if (body === undefined) throw new ApiError(commonErrors.badRequest, 'the feature is required as the body');
      return passOn(await intra.internal(c, 'PUT', path, body));
    },
  );

  const lockOrUnlock = endpoint(
    {
      name: 'stern-lock-unlock-feature',
      auth: 'none',
      method: 'put',
      path: '/teams/{tid}/features/{feature}/lockOrUnlock',
      request: { params: feature, query: z.object({ 'lock-status': z.enum(['locked', 'unlocked']) }) },
      responses: passedOn,
    },
    async (c) => {
      const { tid, feature: name } = c.req.valid('param');
      const lock = c.req.valid('query')['lock-status'];
      return passOn(await intra.internal(c, 'PUT', `/i/teams/${tid}/features/${name}/${lock}`));
    },
  );

  return [
    userStatus(intra, 'suspend-user', 'suspended'),
    userStatus(intra, 'unsuspend-user', 'active'),
    lookup(intra, 'email'),
    lookup(intra, 'ids'),
    lookup(intra, 'handles'),
    ...sternAccountEndpoints(intra),
    ...sternTeamEndpoints(intra),
    getFeature,
    putFeature,
    lockOrUnlock,
  ];
}
