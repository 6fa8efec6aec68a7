import { z } from '@hono/zod-openapi';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { brigErrors } from '../../api/errors/brig.js';
import { json, jsonBody } from '../../api/schemas/common.js';
import { self } from '../../api/self.js';
import { database } from '../../db/client.js';
import { checkUserPassword } from '../password/passwords.js';
import { userStore } from '../users/user-store.js';
import { cookieRecords, type CookieRow } from './cookie-records.js';

const cookieJson = z
  .object({
    id: z.int().min(0).max(4294967295),
    type: z.enum(['session', 'persistent']),
    created: z.string(),
    expires: z.string(),
    label: z.string().nullable(),
    successor: z.int().nullable(),
  })
  .openapi('Cookie');

const toJson = (r: CookieRow): z.infer<typeof cookieJson> => ({
  id: r.id,
  type: r.kind,
  created: new Date(r.createdAt).toISOString(),
  expires: new Date(r.expiresAt * 1000).toISOString(),
  label: r.label,
  successor: r.successor,
});

export const listCookies = endpoint(
  {
    name: 'list-cookies',
    method: 'get',
    path: '/cookies',
    request: { query: z.object({ labels: z.string().optional() }) },
    responses: {
      200: {
        description: 'The cookies of the user',
        ...json(z.object({ cookies: z.array(cookieJson) }).openapi('CookieList')),
      },
    },
  },
  async (c) => {
    const labels = c.req
      .valid('query')
      .labels?.split(',')
      .filter((l) => l !== '');
    const rows = await cookieRecords.list(c.env, self(c).user);
    const nowSeconds = Date.now() / 1000;
    const shown = rows.filter(
      (r) => r.expiresAt > nowSeconds && (labels === undefined || labels.includes(r.label ?? '')),
    );
    return c.json({ cookies: shown.map(toJson) }, 200);
  },
);

export const removeCookies = endpoint(
  {
    name: 'remove-cookies',
    method: 'post',
    path: '/cookies/remove',
    request: jsonBody(
      z
        .object({
          password: z.string().min(6).max(1024),
          labels: z.array(z.string()).optional(),
          ids: z.array(z.int().min(0).max(4294967295)).optional(),
        })
        .openapi('RemoveCookies'),
    ),
    errors: [brigErrors.invalidCredentials, brigErrors.rateLimitExceeded],
    responses: { 200: { description: 'Cookies revoked (all of them when neither labels nor ids are given)' } },
  },
  async (c) => {
    const body = c.req.valid('json');
    const db = database(c.env.DB);
    const me = self(c).user;
    const user = await userStore.byId(db, me);
    if (user === undefined || !(await checkUserPassword(c.env, db, c.get('config'), { user: me }, user, body.password)))
      throw new ApiError(brigErrors.invalidCredentials);
    await cookieRecords.revoke(c.env, me, { ids: body.ids ?? [], labels: body.labels ?? [] });
    return c.body(null, 200);
  },
);
