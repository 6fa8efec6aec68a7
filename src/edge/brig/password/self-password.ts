import { z } from '@hono/zod-openapi';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { brigErrors } from '../../api/errors/brig.js';
import { jsonBody } from '../../api/schemas/common.js';
import { database } from '../../db/client.js';
import { cookieRecords } from '../auth/cookie-records.js';
import { selfRow } from '../users/self.js';
import { userStore } from '../users/user-store.js';
import { checkUserPassword, newPasswordHash } from './passwords.js';
import { verifyPassword } from '../../../shared/password-hash.js';

export const headSelfPassword = endpoint(
  {
    name: 'head-self-password',
    method: 'head',
    path: '/self/password',
    errors: [],
    responses: { 200: { description: 'The user has a password' }, 404: { description: 'The user has no password' } },
  },
  async (c) => c.body(null, (await selfRow(c)).password === null ? 404 : 200),
);

export const changePassword = endpoint(
  {
    name: 'change-password',
    method: 'put',
    path: '/self/password',
    request: jsonBody(
      z
        .object({ old_password: z.string().min(6).max(1024).optional(), new_password: z.string().min(8).max(1024) })
        .openapi('PasswordChange'),
    ),
    errors: [
      brigErrors.invalidCredentials,
      brigErrors.noIdentity,
      brigErrors.passwordMustDiffer,
      brigErrors.rateLimitExceeded,
    ],
    responses: { 200: { description: 'Password changed; every cookie is revoked' } },
  },
  async (c) => {
    const body = c.req.valid('json');
    const config = c.get('config');
    const db = database(c.env.DB);
    const user = await selfRow(c);
    if (!user.activated) throw new ApiError(brigErrors.noIdentity);
    const caller = { user: user.id };
    if (user.password !== null) {
      if (
        body.old_password === undefined ||
        !(await checkUserPassword(c.env, db, config, caller, user, body.old_password))
      )
        throw new ApiError(brigErrors.invalidCredentials);
      const options = config.brig.optSettings.setPasswordHashingOptions;
      if ((await verifyPassword(body.new_password, user.password, options)).ok)
        throw new ApiError(brigErrors.passwordMustDiffer);
    }
    const hash = await newPasswordHash(c.env, config, caller, body.new_password);
    // The cookies first: should the change fail, the user signs in again, never the reverse.
    await cookieRecords.revoke(c.env, user.id);
    await userStore.update(db, user.id, { password: hash });
    return c.body(null, 200);
  },
);
