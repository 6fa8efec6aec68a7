import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { endpoint, type Endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { providerErrors } from '../../api/errors/provider.js';
import { json, jsonBody } from '../../api/schemas/common.js';
import { provider as providerOf } from '../../api/self.js';
import { cookieHeader, keysOf, codeStore, newPasswordHash, passwordMatches, clientIp } from '../../brig/face.js';
import { signProviderToken } from '../../auth/tokens.js';
import { database, runBatch, type Db } from '../../db/client.js';
import { ACTIVATION_RETRIES, activationKey, liveCodeRoute, mailActivation } from './activation.js';
import { email, httpsUrl, password, providerJson, toProviderJson } from './provider-json.js';
import { type ProviderRow, providerStore } from './provider-store.js';

// A service provider's account: registration, activation of its address, login, upkeep.

/** The provider the request's token names (404 `not-found` once deleted). */
export async function currentProvider(c: Context<AppEnv>, db: Db): Promise<ProviderRow> {
  const p = await providerStore.byId(db, providerOf(c));
  if (p === undefined) throw new ApiError(providerErrors.providerNotFound);
  return p;
}

/** `POST /provider/register`: a new provider, its address to activate with the mailed key and code. */
const register = endpoint(
  {
    name: 'provider-register',
    method: 'post',
    path: '/provider/register',
    auth: 'none',
    request: jsonBody(
      z
        .object({
          name: z.string().min(1).max(128),
          email,
          url: httpsUrl,
          description: z.string().min(1).max(1024),
          password: password.optional(),
        })
        .openapi('NewProvider'),
    ),
    errors: [providerErrors.emailExists],
    responses: {
      201: {
        description: 'Registered; the address awaits activation',
        ...json(z.object({ id: z.uuid(), password: z.string().optional() }).openapi('NewProviderResponse')),
      },
    },
  },
  async (c) => {
    const body = c.req.valid('json');
    const config = c.get('config');
    const db = database(c.env.DB);
    if ((await providerStore.byEmail(db, body.email)) !== undefined) throw new ApiError(providerErrors.emailExists);
    // Without a password the backend makes one and answers it once.
    const generated = body.password === undefined ? crypto.randomUUID().replace(/-/g, '') : undefined;
    const hash = await newPasswordHash(c.env, config, { ip: clientIp(c.req.raw) }, body.password ?? generated!);
    const id = crypto.randomUUID();
    await providerStore
      .insert(db, {
        id,
        name: body.name,
        email: null,
        pendingEmail: body.email,
        url: body.url,
        description: body.description,
        password: hash,
        createdAt: Date.now(),
      })
      .run();
    await mailActivation(c.env, config, db, { provider: id, name: body.name, email: body.email });
    return c.json({ id, ...(generated === undefined ? {} : { password: generated }) }, 201);
  },
);

/** `GET /provider/activate?key=&code=`: the address becomes the provider's (200), or already was (204). */
const activate = endpoint(
  {
    name: 'provider-activate',
    method: 'get',
    path: '/provider/activate',
    auth: 'none',
    request: { query: z.object({ key: z.string().min(1), code: z.string().min(1) }) },
    errors: [providerErrors.invalidCode, providerErrors.emailExists],
    responses: {
      200: { description: 'Activated', ...json(z.object({ email: z.string() }).openapi('ProviderActivationResponse')) },
      204: { description: 'The address was active already' },
    },
  },
  async (c) => {
    const { key, code } = c.req.valid('query');
    const db = database(c.env.DB);
    const checked = await codeStore.check(db, 'provider-activation', key, code, ACTIVATION_RETRIES);
    if (!checked.ok || checked.stored.user === null || checked.stored.email === null)
      throw new ApiError(providerErrors.invalidCode);
    const { user: id, email: address } = checked.stored;
    const p = await providerStore.byId(db, id);
    if (p === undefined) throw new ApiError(providerErrors.invalidCode);
    if (p.email === address) return c.body(null, 204);
    const holder = await providerStore.byEmail(db, address);
    if (holder !== undefined && holder.id !== id) throw new ApiError(providerErrors.emailExists);
    // A new address: a password reset mailed to the old one is void.
    const oldReset =
      p.email === null ? [] : [codeStore.consume(db, 'provider-password-reset', await activationKey(p.email))];
    await runBatch(db, [
      providerStore.update(db, id, { email: address, pendingEmail: null }),
      codeStore.consume(db, 'provider-activation', key),
      ...oldReset,
    ]);
    return c.json({ email: address }, 200);
  },
);

/** `POST /provider/login`: the `zprovider` cookie, whose token reaches the provider's routes. */
const login = endpoint(
  {
    name: 'provider-login',
    method: 'post',
    path: '/provider/login',
    auth: 'none',
    request: jsonBody(z.object({ email, password }).openapi('ProviderLogin')),
    errors: [providerErrors.invalidCredentials],
    responses: { 200: { description: 'Logged in: the cookie is set' } },
  },
  async (c) => {
    const body = c.req.valid('json');
    const config = c.get('config');
    const db = database(c.env.DB);
    const p = await providerStore.byEmail(db, body.email);
    const ok =
      p !== undefined &&
      p.email === body.email &&
      (await passwordMatches(c.env, config, { ip: clientIp(c.req.raw) }, p.password, body.password));
    if (!ok) throw new ApiError(providerErrors.invalidCredentials);
    const expires = Math.floor(Date.now() / 1000) + config.brig.zauth.providerTokenTimeout;
    const token = await signProviderToken(await keysOf(c), p.id, expires);
    c.header(
      'set-cookie',
      cookieHeader(config, { name: 'zprovider', value: token, path: '/provider', expiresAt: expires }),
    );
    return c.body(null, 200);
  },
);

const getAccount = endpoint(
  {
    name: 'provider-get-account',
    method: 'get',
    path: '/provider',
    auth: 'provider',
    errors: [providerErrors.providerNotFound],
    responses: { 200: { description: 'The provider', ...json(providerJson) } },
  },
  async (c) => {
    return c.json(toProviderJson(await currentProvider(c, database(c.env.DB))), 200);
  },
);

const update = endpoint(
  {
    name: 'provider-update',
    method: 'put',
    path: '/provider',
    auth: 'provider',
    request: jsonBody(
      z
        .object({
          name: z.string().min(1).max(128).optional(),
          url: httpsUrl.optional(),
          description: z.string().min(1).max(1024).optional(),
        })
        .openapi('UpdateProvider'),
    ),
    errors: [providerErrors.providerNotFound],
    responses: { 200: { description: 'Updated' } },
  },
  async (c) => {
    const db = database(c.env.DB);
    const { id } = await currentProvider(c, db);
    const { name, url, description } = c.req.valid('json');
    const patch = { ...(name && { name }), ...(url && { url }), ...(description && { description }) };
    if (Object.keys(patch).length > 0) await providerStore.update(db, id, patch).run();
    return c.body(null, 200);
  },
);

const changePassword = endpoint(
  {
    name: 'provider-update-password',
    method: 'put',
    path: '/provider/password',
    auth: 'provider',
    request: jsonBody(z.object({ old_password: password, new_password: password }).openapi('PasswordChange')),
    errors: [providerErrors.providerNotFound, providerErrors.invalidCredentials, providerErrors.passwordMustDiffer],
    responses: { 200: { description: 'Password changed' } },
  },
  async (c) => {
    const body = c.req.valid('json');
    const config = c.get('config');
    const db = database(c.env.DB);
    const p = await currentProvider(c, db);
    const caller = { user: p.id };
    if (!(await passwordMatches(c.env, config, caller, p.password, body.old_password)))
      throw new ApiError(providerErrors.invalidCredentials);
    if (body.old_password === body.new_password) throw new ApiError(providerErrors.passwordMustDiffer);
    await providerStore
      .update(db, p.id, { password: await newPasswordHash(c.env, config, caller, body.new_password) })
      .run();
    return c.body(null, 200);
  },
);

/** `DELETE /provider`: with its password, the provider and all its services go. */
const remove = endpoint(
  {
    name: 'provider-delete',
    method: 'delete',
    path: '/provider',
    auth: 'provider',
    request: jsonBody(z.object({ password }).openapi('DeleteProvider')),
    errors: [providerErrors.providerNotFound, providerErrors.invalidCredentials],
    responses: { 200: { description: 'Deleted' } },
  },
  async (c) => {
    const config = c.get('config');
    const db = database(c.env.DB);
    const p = await currentProvider(c, db);
    if (!(await passwordMatches(c.env, config, { user: p.id }, p.password, c.req.valid('json').password)))
      throw new ApiError(providerErrors.invalidCredentials);
    await runBatch(db, providerStore.delete(db, p.id));
    return c.body(null, 200);
  },
);

/** `GET /providers/{pid}`: a provider's profile, for users. */
const profile = endpoint(
  {
    name: 'provider-get-profile',
    method: 'get',
    path: '/providers/{pid}',
    request: { params: z.object({ pid: z.uuid() }) },
    errors: [providerErrors.providerNotFound],
    responses: { 200: { description: 'The provider', ...json(providerJson.openapi('ProviderProfile')) } },
  },
  async (c) => {
    const p = await providerStore.byId(database(c.env.DB), c.req.valid('param').pid);
    if (p === undefined || p.email === null) throw new ApiError(providerErrors.providerNotFound);
    return c.json(toProviderJson(p), 200);
  },
);

const activationCode = liveCodeRoute(
  'get-provider-activation-code',
  '/i/provider/activation-code',
  'provider-activation',
);

export const providerAccountEndpoints: Endpoint[] = [
  register,
  activate,
  login,
  getAccount,
  update,
  changePassword,
  remove,
  profile,
];
export const providerInternalEndpoints: Endpoint[] = [activationCode];
