import { z } from '@hono/zod-openapi';
import { deps } from '../../api/deps.js';
import { endpoint, type Endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { providerErrors } from '../../api/errors/provider.js';
import { json, jsonBody } from '../../api/schemas/common.js';
import { self, selfQualified } from '../../api/self.js';
import { hasPerm } from '../../api/team-permissions.js';
import { database } from '../../db/client.js';
import { roleInTeam, teamFeature } from '../../galley/face.js';
import {
  SERVICE_TAGS,
  serviceProfileJson,
  serviceProfilePage,
  serviceTag,
  toServiceProfile,
} from '../providers/provider-json.js';
import { providerStore, type ServiceRow } from '../providers/provider-store.js';
import { removeServiceBots } from './service-bots.js';

// How users find services: by provider, by tags or name, and the ones their team allows.

const size = z.coerce.number().int().min(10).max(100).default(20);
const page = (rows: ServiceRow[], n: number) => ({
  has_more: rows.length > n,
  services: rows.slice(0, n).map(toServiceProfile),
});
const startsWith = (prefix: string | undefined) => (s: ServiceRow) =>
  prefix === undefined || s.name.toLowerCase().startsWith(prefix.toLowerCase());

/**
 * wire's tag query: alternatives separated by `,`, each a conjunction of tags separated by `.`
 * (`music.quiz,weather`); 1 to 3 alternatives of 1 to 3 tags.
 */
const tagQuery = z
  .string()
  .transform((q) => q.split(',').map((group) => group.split('.')))
  .pipe(z.array(z.array(serviceTag).min(1).max(3)).min(1).max(3));

const byProvider = endpoint(
  {
    name: 'get-provider-services-by-provider-id',
    method: 'get',
    path: '/providers/{pid}/services',
    request: { params: z.object({ pid: z.uuid() }) },
    responses: { 200: { description: "The provider's services", ...json(z.array(serviceProfileJson)) } },
  },
  async (c) => {
    const rows = await providerStore.servicesOf(database(c.env.DB), c.req.valid('param').pid);
    return c.json(rows.map(toServiceProfile), 200);
  },
);

const oneOfProvider = endpoint(
  {
    name: 'get-provider-services-by-provider-id-and-service-id',
    method: 'get',
    path: '/providers/{pid}/services/{sid}',
    request: { params: z.object({ pid: z.uuid(), sid: z.uuid() }) },
    errors: [providerErrors.serviceNotFound],
    responses: { 200: { description: 'The service', ...json(serviceProfileJson) } },
  },
  async (c) => {
    const { pid, sid } = c.req.valid('param');
    const s = await providerStore.service(database(c.env.DB), pid, sid);
    if (s === undefined) throw new ApiError(providerErrors.serviceNotFound);
    return c.json(toServiceProfile(s), 200);
  },
);

/** `GET /services?tags=&start=&size=`: enabled services by tags (and name prefix), or by name prefix. */
const search = endpoint(
  {
    name: 'get-services',
    method: 'get',
    path: '/services',
    request: {
      query: z.object({ tags: tagQuery.optional(), start: z.string().min(1).max(128).optional(), size }),
    },
    errors: [providerErrors.tagsOrStart],
    responses: { 200: { description: 'A page of services', ...json(serviceProfilePage) } },
  },
  async (c) => {
    const { tags, start, size: n } = c.req.valid('query');
    if (tags === undefined && start === undefined) throw new ApiError(providerErrors.tagsOrStart);
    const matchesTags = (s: ServiceRow) =>
      tags === undefined || tags.some((all) => all.every((t) => s.tags.includes(t)));
    const rows = (await providerStore.enabled(database(c.env.DB))).filter(
      (s) => matchesTags(s) && startsWith(start)(s),
    );
    return c.json(page(rows, n), 200);
  },
);

const tagList = endpoint(
  {
    name: 'get-services-tags',
    method: 'get',
    path: '/services/tags',
    responses: { 200: { description: 'Every service tag', ...json(z.array(serviceTag).openapi('ServiceTagList')) } },
  },
  (c) => c.json([...SERVICE_TAGS], 200),
);

const teamParam = { params: z.object({ 'team-id': z.uuid() }) };

/** `GET /teams/{team-id}/services/whitelisted`: the services the caller's team allows. */
const whitelisted = endpoint(
  {
    name: 'get-whitelisted-services-by-team-id',
    method: 'get',
    path: '/teams/{team-id}/services/whitelisted',
    request: {
      ...teamParam,
      query: z.object({
        prefix: z.string().min(1).max(128).optional(),
        filter_disabled: z.enum(['true', 'false']).default('true'),
        size,
      }),
    },
    errors: [providerErrors.insufficientPermissions],
    responses: { 200: { description: 'A page of services', ...json(serviceProfilePage) } },
  },
  async (c) => {
    const team = c.req.valid('param')['team-id'];
    const q = c.req.valid('query');
    const db = database(c.env.DB);
    const me = await deps(c).users.account(selfQualified(c));
    if (me?.team !== team) throw new ApiError(providerErrors.insufficientPermissions);
    const rows = (await providerStore.whitelistOf(db, team)).filter(
      (s) => startsWith(q.prefix)(s) && (q.filter_disabled === 'false' || s.enabled),
    );
    return c.json(page(rows, q.size), 200);
  },
);

/**
 * `POST /teams/{team-id}/services/whitelist`: a team admin allows or disallows a service (200 when
 * that changed, 204 when not). Teams whose default protocol is MLS (or mixed) take no services.
 */
const whitelist = endpoint(
  {
    name: 'post-team-whitelist-by-team-id',
    method: 'post',
    path: '/teams/{team-id}/services/whitelist',
    request: {
      ...teamParam,
      ...jsonBody(
        z.object({ provider: z.uuid(), id: z.uuid(), whitelisted: z.boolean() }).openapi('UpdateServiceWhitelist'),
      ),
    },
    errors: [
      providerErrors.mlsServicesNotAllowed,
      providerErrors.insufficientPermissions,
      providerErrors.serviceNotFound,
    ],
    responses: { 200: { description: 'Changed' }, 204: { description: 'Unchanged' } },
  },
  async (c) => {
    const team = c.req.valid('param')['team-id'];
    const body = c.req.valid('json');
    const db = database(c.env.DB);
    const mls = (await teamFeature(db, c.get('config'), team, 'mls')).config as
      | { defaultProtocol?: string }
      | undefined;
    if (mls?.defaultProtocol === 'mls' || mls?.defaultProtocol === 'mixed')
      throw new ApiError(providerErrors.mlsServicesNotAllowed);
    const role = await roleInTeam(db, team, selfQualified(c).id);
    const may =
      role !== undefined &&
      (['AddTeamMember', 'RemoveTeamMember', 'AddRemoveConvMember', 'SetTeamData'] as const).every((p) =>
        hasPerm(role, p),
      );
    if (!may) throw new ApiError(providerErrors.insufficientPermissions);
    if ((await providerStore.service(db, body.provider, body.id)) === undefined)
      throw new ApiError(providerErrors.serviceNotFound);
    const was = await providerStore.whitelisted(db, team, body.provider, body.id);
    if (was === body.whitelisted) return c.body(null, 204);
    const change = body.whitelisted ? providerStore.whitelist : providerStore.unwhitelist;
    await change(db, team, body.provider, body.id).run();
    if (!body.whitelisted)
      await removeServiceBots(deps(c), { id: body.id, provider: body.provider }, { team, by: self(c) });
    return c.body(null, 200);
  },
);

export const serviceDiscoveryEndpoints: Endpoint[] = [
  byProvider,
  oneOfProvider,
  tagList,
  search,
  whitelisted,
  whitelist,
];
