import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { brigErrors } from '../../api/errors/brig.js';
import { json, jsonBody } from '../../api/schemas/common.js';
import { database } from '../../db/client.js';
import { isUniqueViolation } from '../../db/errors.js';
import { announceUpdate, selfRow } from './self.js';
import { userStore } from './user-store.js';
import { guardManagedField } from './managed-fields.js';
import { renaming, takenHandles, userByHandle } from './user-names.js';

/** Handles nobody may take. */
const BLOCKED = new Set(
  'account admin administrator all android anna avs backend bot cs design dev developer development everyone help helpdesk hr info ios legal management news otto payment product purchase qa support team user web wire wirebot wireteam'.split(
    ' ',
  ),
);

export function isValidHandle(h: string): boolean {
  return /^[a-z0-9_.-]{2,256}$/.test(h) && !BLOCKED.has(h);
}

export const putHandle = endpoint(
  {
    name: 'change-handle',
    method: 'put',
    path: '/self/handle',
    request: jsonBody(z.object({ handle: z.string() }).openapi('HandleUpdate')),
    errors: [brigErrors.invalidHandle, brigErrors.handleExists, brigErrors.noIdentity, brigErrors.managedByScim],
    responses: { 200: { description: 'Handle changed' } },
  },
  async (c) => {
    const { handle } = c.req.valid('json');
    if (!isValidHandle(handle)) throw new ApiError(brigErrors.invalidHandle);
    const user = await selfRow(c);
    if (!user.activated && user.status !== 'ephemeral') throw new ApiError(brigErrors.noIdentity);
    if (user.handle === handle) return c.body(null, 200);
    await guardManagedField(database(c.env.DB), c.get('config'), user, 'handle');
    try {
      await renaming(c.env, user.id, user, { ...user, handle }, () =>
        userStore.update(database(c.env.DB), user.id, { handle }),
      );
    } catch (err) {
      if (isUniqueViolation(err, 'users.handle')) throw new ApiError(brigErrors.handleExists);
      throw err;
    }
    await announceUpdate(c, { id: user.id, handle }, true);
    return c.body(null, 200);
  },
);

const checkHandleRoute = (path: string, from: 0 | 7, until?: 7) =>
  endpoint(
    {
      name: from === 0 ? 'check-user-handle@v6' : 'check-user-handle',
      method: 'head',
      path,
      from,
      ...(until === undefined ? {} : { until }),
      request: { params: z.object({ handle: z.string() }) },
      errors: [brigErrors.invalidHandle, brigErrors.handleNotFound],
      responses: { 200: { description: 'The handle is taken' } },
    },
    async (c) => {
      const { handle } = c.req.valid('param');
      if (!isValidHandle(handle)) throw new ApiError(brigErrors.invalidHandle);
      if ((await userByHandle(c.env, handle)) === undefined) throw new ApiError(brigErrors.handleNotFound);
      return c.body(null, 200);
    },
  );

/** `HEAD /handles/{handle}` (from v7; `/users/handles/{handle}` before): 200 when taken, 404 when free. */
export const checkHandle = checkHandleRoute('/handles/{handle}', 7);
export const checkHandleV6 = checkHandleRoute('/users/handles/{handle}', 0, 7);

const checkHandlesRoute = {
  method: 'post',
  request: jsonBody(
    z
      .object({ handles: z.array(z.string()).min(1).max(50), return: z.int().min(1).max(10).default(1) })
      .openapi('CheckHandles'),
  ),
  responses: { 200: { description: 'Free handles, in the order asked', ...json(z.array(z.string())) } },
} as const;

async function freeHandles(c: Context<AppEnv>, body: { handles: string[]; return: number }) {
  const candidates = [...new Set(body.handles)].filter(isValidHandle);
  const taken = await takenHandles(c.env, candidates);
  return c.json(candidates.filter((h) => !taken.has(h)).slice(0, body.return), 200);
}

/** `POST /handles` (from v7; `/users/handles` before): the free ones of the handles asked. */
export const checkHandles = endpoint(
  { name: 'check-user-handles', path: '/handles', from: 7, ...checkHandlesRoute },
  (c) => freeHandles(c, c.req.valid('json')),
);
export const checkHandlesV6 = endpoint(
  { name: 'check-user-handles@v6', path: '/users/handles', until: 7, ...checkHandlesRoute },
  (c) => freeHandles(c, c.req.valid('json')),
);
