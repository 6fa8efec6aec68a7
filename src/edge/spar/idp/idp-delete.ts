import { z } from '@hono/zod-openapi';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { sparErrors } from '../../api/errors/spar.js';
import { deleteAccount, usersByIds } from '../../brig/face.js';
import { runBatch, database } from '../../db/client.js';
import { ownIdp } from './idp-access.js';
import { idpStore } from './idp-store.js';
import { scimTokenStore } from '../scim/scim-token-store.js';
import { settingsStore } from '../sso-settings-store.js';
import { samlIssuerOf } from '../saml/saml-identity.js';
import { samlStore } from '../saml/saml-store.js';
import { deps } from '../../api/deps.js';

export const deleteIdp = endpoint(
  {
    name: 'idp-delete',
    method: 'delete',
    path: '/identity-providers/{id}',
    request: { params: z.object({ id: z.uuid() }), query: z.object({ purge: z.stringbool().optional() }) },
    errors: [
      sparErrors.idpNotFound,
      sparErrors.insufficientPermissions,
      sparErrors.noTeamMember,
      sparErrors.idpHasBoundUsers,
      sparErrors.cannotDeleteOwnIdp,
    ],
    responses: { 204: { description: 'The identity provider is gone (with its users, when purged)' } },
  },
  async (c) => {
    const { idp, team, user } = await ownIdp(c, c.req.valid('param').id);
    if (samlIssuerOf(user) === idp.issuer) throw new ApiError(sparErrors.cannotDeleteOwnIdp);
    const db = database(c.env.DB);
    const config = c.get('config');
    const domain = deps(c).domain;
    const signedIn = await usersByIds(
      db,
      (await samlStore.usersOf(db, team, idp.issuer)).map((id) => ({ id, domain })),
    );
    const bound = signedIn.filter((u) => u.team === team);
    if (bound.length > 0) {
      const live = bound.filter((u) => u.status !== 'deleted');
      if (live.length > 0 && c.req.valid('query').purge !== true) throw new ApiError(sparErrors.idpHasBoundUsers);
      for (const u of live) await deleteAccount(c.env, db, config, u);
    }
    // The bindings are in the team's partition, the IdP in partition 0: the bindings go first,
    // and a retry after a failure between finds no bound users left and deletes the IdP.
    await samlStore
      .forgetUsers(
        db,
        team,
        idp.issuer,
        bound.map((u) => u.id),
      )
      .run();
    await runBatch(db, [
      idpStore.unreplace(db, team, idp.oldIssuers),
      scimTokenStore.deleteOfIdp(db, idp.id),
      settingsStore.clearDefaultSsoCode(db, idp.id),
      idpStore.delete(db, idp.id),
    ]);
    return c.body(null, 204);
  },
);
