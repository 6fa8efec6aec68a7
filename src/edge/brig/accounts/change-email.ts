import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { brigErrors } from '../../api/errors/brig.js';
import { jsonBody } from '../../api/schemas/common.js';
import { self } from '../../api/self.js';
import { validCookie } from '../auth/access.js';
import { keysOf } from '../auth/session.js';
import { selfRow } from '../users/self.js';
import { emailUpdate, requestEmailChange } from './email-change.js';
import { deps } from '../../api/deps.js';

/**
 * `PUT /access/self/email`: a new address for the caller, who must present both the cookie and
 * the access token. The address is mailed an activation code; `/activate` with it makes the
 * change (`first: false`, and a `user.update`).
 */
export const changeEmail = endpoint(
  {
    name: 'change-self-email',
    method: 'put',
    path: '/access/self/email',
    request: jsonBody(emailUpdate),
    errors: [
      brigErrors.invalidEmail,
      brigErrors.invalidCredentials,
      brigErrors.keyExists,
      brigErrors.noIdentity,
      brigErrors.emailManagedByScim,
    ],
    responses: {
      202: { description: 'Update accepted and pending activation of the new email' },
      204: { description: 'No update, current and new email address are the same' },
    },
  },
  async (c) => {
    const { email } = c.req.valid('json');
    const cookie = await validCookie(c.env, await keysOf(c), c.req.header('cookie'));
    if (cookie.user !== self(c).user) throw new ApiError(brigErrors.invalidCredentials, 'Invalid zauth token');
    const user = await selfRow(c);
    if (!user.activated) throw new ApiError(brigErrors.noIdentity);
    const outcome = await requestEmailChange(deps(c), user, email);
    return c.body(null, outcome === 'unchanged' ? 204 : 202);
  },
);
