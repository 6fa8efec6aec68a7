// Who a granted sign-in is: the user an IdP's NameID names (moved along when the IdP's issuer
// changed), or a new member of the IdP's team on their first sign-in, as wire auto-provisions.
import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { ApiError } from '../../api/errors/api-error.js';
import { sparErrors } from '../../api/errors/spar.js';
import { requestEmailChange, type UserRow, userById } from '../../brig/face.js';
import { database, type Db, runBatch } from '../../db/client.js';
import { featureEnabled } from '../../galley/face.js';
import { createTeamAccount } from '../team-account.js';
import type { IdpRow } from '../idp/idp-store.js';
import { scimTokenStore } from '../scim/scim-token-store.js';
import { type NameId, NAMEID_EMAIL, nameIdKey, samlSsoId } from './saml-identity.js';
import { samlStore } from './saml-store.js';
import { deps } from '../../api/deps.js';

async function liveUser(c: Context<AppEnv>, id: string | undefined): Promise<UserRow | undefined> {
  if (id === undefined) return undefined;
  const user = await userById(database(c.env.DB), { id, domain: deps(c).domain });
  return user?.status === 'deleted' ? undefined : user;
}

/** A user known under one of the IdP's former issuers is moved to its current one. */
async function movedFromOldIssuer(
  c: Context<AppEnv>,
  db: Db,
  idp: IdpRow,
  nameId: NameId,
): Promise<UserRow | undefined> {
  for (const old of idp.oldIssuers) {
    const user = await liveUser(c, await samlStore.userOf(db, idp.team, old, nameIdKey(nameId)));
    if (user?.team !== idp.team) continue;
    await runBatch(db, [
      samlStore.bind(db, idp.team, idp.issuer, nameIdKey(nameId), user!.id),
      samlStore.unbind(db, idp.team, old, nameIdKey(nameId)),
    ]);
    return user;
  }
  return undefined;
}

async function provision(c: Context<AppEnv>, db: Db, idp: IdpRow, nameId: NameId): Promise<UserRow> {
  if (idp.replacedBy !== null) throw new ApiError(sparErrors.provisionOnReplacedIdp);
  if ((await scimTokenStore.countOfTeam(db, idp.team)) > 0) throw new ApiError(sparErrors.noAutoProvisioning);
  if (nameId.value.length > 128) throw new ApiError(sparErrors.badUsername);
  const config = c.get('config');
  const user = await createTeamAccount(c.env, config, {
    name: nameId.value,
    emailVerified: false,
    provisioned: {
      team: idp.team,
      role: 'member',
      ssoId: samlSsoId(idp.issuer, nameId),
      managedBy: 'wire',
      records: (id) => [samlStore.bind(db, idp.team, idp.issuer, nameIdKey(nameId), id)],
    },
  });
  if (nameId.format === NAMEID_EMAIL) {
    // Validated first when the team's validateSAMLemails is on, else set as it is. An address that
    // is not valid or belongs to another account is left out; the sign-in stands.
    const validate = await featureEnabled(db, config, idp.team, 'validateSAMLemails');
    await requestEmailChange(deps(c), user, nameId.value, true, validate).catch((err: unknown) => {
      if (!(err instanceof ApiError)) throw err;
    });
  }
  return user;
}

/** The user a granted sign-in through `idp` is: 403 `bad-team` when they belong to another team. */
export async function samlUser(c: Context<AppEnv>, idp: IdpRow, nameId: NameId): Promise<UserRow> {
  const db = database(c.env.DB);
  const known = await liveUser(c, await samlStore.userOf(db, idp.team, idp.issuer, nameIdKey(nameId)));
  if (known !== undefined) {
    if (known.team !== idp.team) throw new ApiError(sparErrors.badTeam);
    return known;
  }
  return (await movedFromOldIssuer(c, db, idp, nameId)) ?? provision(c, db, idp, nameId);
}
