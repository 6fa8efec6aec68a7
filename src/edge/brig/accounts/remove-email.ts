import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { brigErrors } from '../../api/errors/brig.js';
import { self } from '../../api/self.js';
import { database } from '../../db/client.js';
import { commitChange } from '../../effects/commit-change.js';
import { publishEffect } from '../../events/publish.js';
import { userEvents } from '../../events/user-events.js';
import { emailRemoval, identityOf } from '../users/identity.js';
import { selfRow } from '../users/self.js';
import { userStore } from '../users/user-store.js';
import { renaming } from '../users/user-names.js';

const refusals = { 'no-identity': brigErrors.noIdentity, 'last-identity': brigErrors.lastIdentity } as const;

/** `DELETE /self/email`: SAML users may drop their email; everyone else would lose their login with it. */
export const removeEmail = endpoint(
  {
    name: 'remove-email',
    method: 'delete',
    path: '/self/email',
    errors: [brigErrors.lastIdentity, brigErrors.noIdentity],
    responses: { 200: { description: 'Identity Removed' } },
  },
  async (c) => {
    const user = await selfRow(c);
    const removal = emailRemoval(identityOf(user));
    if (!removal.ok) throw new ApiError(refusals[removal.refusal]);
    await renaming(c.env, user.id, user, { ...user, emailKey: null }, () =>
      commitChange(c.env, c.get('config'), {
        statements: [userStore.update(database(c.env.DB), user.id, { email: null, emailKey: null })],
        effects: [
          publishEffect([{ user: user.id }], userEvents.emailRemoved(user.id, removal.email), { origin: self(c) }),
        ],
      }),
    );
    return c.body(null, 200);
  },
);
