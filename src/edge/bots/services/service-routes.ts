import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { deps } from '../../api/deps.js';
import { endpoint, type Endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { providerErrors } from '../../api/errors/provider.js';
import { json, jsonBody } from '../../api/schemas/common.js';
import { provider as providerOf } from '../../api/self.js';
import { database, runBatch, type Db } from '../../db/client.js';
import { passwordMatches } from '../../brig/face.js';
import { httpsUrl, newService, password, serviceJson, serviceTags, toServiceJson } from '../providers/provider-json.js';
import { currentProvider } from '../providers/account-routes.js';
import { providerStore, type ServiceRow } from '../providers/provider-store.js';
import { newAuthToken, serviceKey } from './service-keys.js';
import { removeServiceBots } from './service-bots.js';

// A provider's services: created disabled, described, connected (URL, keys, tokens), enabled, deleted.

const serviceParam = { params: z.object({ sid: z.uuid() }) };
const authToken = z.string().regex(/^[A-Za-z0-9_-]+=*$/);

async function ownService(c: Context<AppEnv>, db: Db, sid: string): Promise<ServiceRow> {
  const s = await providerStore.service(db, providerOf(c), sid);
  if (s === undefined) throw new ApiError(providerErrors.serviceNotFound);
  return s;
}

/** The provider's password again, for changes of a service's connection or its deletion. */
async function requirePassword(c: Context<AppEnv>, db: Db, given: string): Promise<void> {
  const p = await currentProvider(c, db);
  if (!(await passwordMatches(c.env, c.get('config'), { user: p.id }, p.password, given)))
    throw new ApiError(providerErrors.invalidCredentials);
}

const create = endpoint(
  {
    name: 'post-provider-services',
    method: 'post',
    path: '/provider/services',
    auth: 'provider',
    request: jsonBody(newService),
    errors: [providerErrors.providerNotFound, providerErrors.invalidServiceKey],
    responses: {
      201: {
        description: 'Created, disabled until its provider enables it',
        ...json(z.object({ id: z.uuid(), auth_token: z.string().optional() }).openapi('NewServiceResponse')),
      },
    },
  },
  async (c) => {
    const body = c.req.valid('json');
    const db = database(c.env.DB);
    if ((await providerStore.byId(db, providerOf(c))) === undefined)
      throw new ApiError(providerErrors.providerNotFound);
    const key = await serviceKey(body.public_key);
    const generated = body.auth_token === undefined ? newAuthToken() : undefined;
    const id = crypto.randomUUID();
    await providerStore
      .insertService(db, {
        id,
        provider: providerOf(c),
        name: body.name,
        summary: body.summary,
        description: body.description,
        baseUrl: body.base_url,
        authTokens: [body.auth_token ?? generated!],
        publicKeys: [key],
        assets: body.assets,
        tags: body.tags,
        enabled: false,
        createdAt: Date.now(),
      })
      .run();
    c.header('location', `/provider/services/${id}`);
    return c.json({ id, ...(generated === undefined ? {} : { auth_token: generated }) }, 201);
  },
);

const list = endpoint(
  {
    name: 'get-provider-services',
    method: 'get',
    path: '/provider/services',
    auth: 'provider',
    responses: { 200: { description: "The provider's services", ...json(z.array(serviceJson)) } },
  },
  async (c) => c.json((await providerStore.servicesOf(database(c.env.DB), providerOf(c))).map(toServiceJson), 200),
);

const getOne = endpoint(
  {
    name: 'get-provider-services-by-service-id',
    method: 'get',
    path: '/provider/services/{sid}',
    auth: 'provider',
    request: serviceParam,
    errors: [providerErrors.serviceNotFound],
    responses: { 200: { description: 'The service', ...json(serviceJson) } },
  },
  async (c) => c.json(toServiceJson(await ownService(c, database(c.env.DB), c.req.valid('param').sid)), 200),
);

const update = endpoint(
  {
    name: 'put-provider-services-by-service-id',
    method: 'put',
    path: '/provider/services/{sid}',
    auth: 'provider',
    request: {
      ...serviceParam,
      ...jsonBody(
        z
          .object({
            name: z.string().min(1).max(128).optional(),
            summary: z.string().min(1).max(128).optional(),
            description: z.string().min(1).max(1024).optional(),
            assets: newService.shape.assets.optional(),
            tags: serviceTags.optional(),
          })
          .openapi('UpdateService'),
      ),
    },
    errors: [providerErrors.serviceNotFound],
    responses: { 200: { description: 'Updated' } },
  },
  async (c) => {
    const db = database(c.env.DB);
    const s = await ownService(c, db, c.req.valid('param').sid);
    const { name, summary, description, assets, tags } = c.req.valid('json');
    const patch = {
      ...(name && { name }),
      ...(summary && { summary }),
      ...(description && { description }),
      ...(assets && { assets }),
      ...(tags && { tags }),
    };
    if (Object.keys(patch).length > 0) await providerStore.updateService(db, s.provider, s.id, patch).run();
    return c.body(null, 200);
  },
);

/** The service's connection: where it listens, its keys and tokens, and whether it is enabled. */
const updateConnection = endpoint(
  {
    name: 'put-provider-services-connection-by-service-id',
    method: 'put',
    path: '/provider/services/{sid}/connection',
    auth: 'provider',
    request: {
      ...serviceParam,
      ...jsonBody(
        z
          .object({
            password,
            base_url: httpsUrl.optional(),
            public_keys: z.array(z.string()).min(1).max(2).optional(),
            auth_tokens: z.array(authToken).min(1).max(2).optional(),
            enabled: z.boolean().optional(),
          })
          .openapi('UpdateServiceConn'),
      ),
    },
    errors: [providerErrors.serviceNotFound, providerErrors.invalidCredentials, providerErrors.invalidServiceKey],
    responses: { 200: { description: 'Updated' } },
  },
  async (c) => {
    const db = database(c.env.DB);
    const body = c.req.valid('json');
    await requirePassword(c, db, body.password);
    const s = await ownService(c, db, c.req.valid('param').sid);
    const keys = body.public_keys === undefined ? undefined : await Promise.all(body.public_keys.map(serviceKey));
    const patch = {
      ...(body.base_url && { baseUrl: body.base_url }),
      ...(keys && { publicKeys: keys }),
      ...(body.auth_tokens && { authTokens: body.auth_tokens }),
      ...(body.enabled !== undefined && { enabled: body.enabled }),
    };
    if (Object.keys(patch).length > 0) await providerStore.updateService(db, s.provider, s.id, patch).run();
    return c.body(null, 200);
  },
);

const remove = endpoint(
  {
    name: 'delete-provider-services-by-service-id',
    method: 'delete',
    path: '/provider/services/{sid}',
    auth: 'provider',
    request: { ...serviceParam, ...jsonBody(z.object({ password }).openapi('DeleteService')) },
    errors: [providerErrors.serviceNotFound, providerErrors.invalidCredentials],
    responses: { 202: { description: 'Deleted' } },
  },
  async (c) => {
    const db = database(c.env.DB);
    await requirePassword(c, db, c.req.valid('json').password);
    const s = await ownService(c, db, c.req.valid('param').sid);
    await runBatch(db, providerStore.deleteService(db, s.provider, s.id));
    await removeServiceBots(deps(c), s);
    return c.body(null, 202);
  },
);

export const providerServiceEndpoints: Endpoint[] = [create, list, getOne, update, updateConnection, remove];
