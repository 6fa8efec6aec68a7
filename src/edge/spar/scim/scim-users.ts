import { z } from '@hono/zod-openapi';
import type { UserRow } from '../../brig/face.js';
import { userByHandle } from '../../brig/face.js';
import { type Scim, scimContext, teamUser, viewOf } from './scim-context.js';
import { scimBody, scimEndpoint, scimList, scimResponse } from './scim-endpoint.js';
import { scimErrors, scimJson } from './scim-error.js';
import { parseScimFilter } from './scim-filter.js';
import { applyScimPatch } from './scim-patch.js';
import { createScimUser, deleteScimUser, replaceScimUser, userByExternalId } from './scim-provision.js';
import { parseScimUser } from './scim-user-input.js';
import { scimUserJson } from './scim-user-json.js';

const params = z.object({ id: z.string() });

const richInfoLimit = (s: Scim) => s.c.get('config').brig.optSettings.setRichInfoLimit;
const render = async (s: Scim, user: UserRow) => scimUserJson(await viewOf(s, user));

async function byHandle(s: Scim, handle: string): Promise<UserRow | undefined> {
  const holder = await userByHandle(s.c.env, handle);
  return holder === undefined ? undefined : teamUser(s, holder.id);
}

async function existing(s: Scim, id: string): Promise<UserRow> {
  const user = await teamUser(s, id);
  if (user === undefined) throw scimErrors.notFound('User', id);
  return user;
}

export const createScimUserRoute = scimEndpoint(
  {
    name: 'scim-users-create',
    method: 'post',
    path: '/scim/v2/Users',
    hide: true,
    responses: { 201: scimResponse('The provisioned user') },
  },
  async (c) => {
    const s = await scimContext(c);
    const input = parseScimUser(await scimBody(c), 'post', richInfoLimit(s));
    return scimJson(await render(s, await createScimUser(s, input)), 201);
  },
);

export const getScimUser = scimEndpoint(
  {
    name: 'scim-users-get',
    method: 'get',
    path: '/scim/v2/Users/{id}',
    hide: true,
    request: { params },
    responses: { 200: scimResponse('The user') },
  },
  async (c) => {
    const s = await scimContext(c);
    return scimJson(await render(s, await existing(s, c.req.valid('param').id)), 200);
  },
);

export const listScimUsers = scimEndpoint(
  {
    name: 'scim-users-list',
    method: 'get',
    path: '/scim/v2/Users',
    hide: true,
    request: { query: z.object({ filter: z.string().optional() }) },
    responses: { 200: scimResponse('The users matching the filter (at most one)') },
  },
  async (c) => {
    const s = await scimContext(c);
    const text = c.req.valid('query').filter;
    if (text === undefined) throw scimErrors.badRequest('tooMany', 'Please specify a filter when getting users.');
    const filter = parseScimFilter(text);
    const user =
      filter.attribute === 'username'
        ? await byHandle(s, filter.value.toLowerCase())
        : await userByExternalId(s, filter.value);
    const found = user === undefined ? [] : [await render(s, user)];
    return scimJson(scimList(found), 200);
  },
);

export const replaceScimUserRoute = scimEndpoint(
  {
    name: 'scim-users-replace',
    method: 'put',
    path: '/scim/v2/Users/{id}',
    hide: true,
    request: { params },
    responses: { 200: scimResponse('The user as replaced') },
  },
  async (c) => {
    const s = await scimContext(c);
    const user = await existing(s, c.req.valid('param').id);
    const input = parseScimUser(await scimBody(c), 'put', richInfoLimit(s));
    return scimJson(await render(s, await replaceScimUser(s, user, input)), 200);
  },
);

export const patchScimUser = scimEndpoint(
  {
    name: 'scim-users-patch',
    method: 'patch',
    path: '/scim/v2/Users/{id}',
    hide: true,
    request: { params },
    responses: { 200: scimResponse('The user as patched') },
  },
  async (c) => {
    const s = await scimContext(c);
    const user = await existing(s, c.req.valid('param').id);
    const patched = applyScimPatch(await render(s, user), await scimBody(c));
    const input = parseScimUser(patched, 'put', richInfoLimit(s));
    return scimJson(await render(s, await replaceScimUser(s, user, input)), 200);
  },
);

export const deleteScimUserRoute = scimEndpoint(
  {
    name: 'scim-users-delete',
    method: 'delete',
    path: '/scim/v2/Users/{id}',
    hide: true,
    request: { params },
    responses: { 204: { description: 'The user is deleted (or was not in the team)' } },
  },
  async (c) => {
    const s = await scimContext(c);
    const user = await teamUser(s, c.req.valid('param').id);
    if (user !== undefined) await deleteScimUser(s, user);
    return c.body(null, 204);
  },
);
