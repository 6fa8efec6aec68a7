import { z } from '@hono/zod-openapi';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { brigErrors } from '../../api/errors/brig.js';
import { jsonBody } from '../../api/schemas/common.js';
import { database } from '../../db/client.js';
import { commitChange } from '../../effects/commit-change.js';
import { publishEffect } from '../../events/publish.js';
import { userEvents } from '../../events/user-events.js';
import { contactsOf } from './contacts.js';
import { ssoId } from './identity.js';
import { userStore } from './user-store.js';
import { deps } from '../../api/deps.js';

/**
 * `PUT /i/users/{uid}/sso-id`: sets the account's SSO id (a SAML tenant and subject, or a SCIM
 * external id), as spar does; the user and their contacts hear `user.update`.
 */
export const putSsoId = endpoint(
  {
    name: 'i-put-user-sso-id',
    method: 'put',
    path: '/i/users/{uid}/sso-id',
    request: { params: z.object({ uid: z.uuid() }), ...jsonBody(ssoId) },
    errors: [brigErrors.userNotFound],
    responses: { 200: { description: 'Set' } },
  },
  async (c) => {
    const { uid } = c.req.valid('param');
    const sso = c.req.valid('json');
    const db = database(c.env.DB);
    const user = await userStore.byId(db, uid);
    if (user === undefined || user.status === 'deleted') throw new ApiError(brigErrors.userNotFound);
    const domain = deps(c).domain;
    const contacts = await contactsOf(c.env, { id: uid, domain });
    const recipients = [uid, ...contacts.map((u) => u.id)].map((user) => ({ user }));
    await commitChange(c.env, c.get('config'), {
      statements: [userStore.update(db, uid, { ssoId: sso })],
      effects: [publishEffect(recipients, userEvents.update({ id: uid, sso_id: sso }))],
    });
    return c.body(null, 200);
  },
);
