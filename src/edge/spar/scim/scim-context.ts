import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { richInfoOf, type UserRow, userById } from '../../brig/face.js';
import { database, type Db } from '../../db/client.js';
import { roleInTeam } from '../../galley/face.js';
import { type IdpRow, idpStore } from '../idp/idp-store.js';
import { scimBaseUri } from '../service-provider.js';
import { scimToken } from './scim-auth.js';
import type { ScimTokenRow } from './scim-token-store.js';
import type { ScimUserView } from './scim-user-json.js';
import { scimUserStore } from './scim-user-store.js';
import { deps } from '../../api/deps.js';

/** A SCIM request's standing: its token's team, and the IdP its users sign in with (or none). */
export interface Scim {
  c: Context<AppEnv>;
  db: Db;
  token: ScimTokenRow;
  team: string;
  idp: IdpRow | undefined;
}

export async function scimContext(c: Context<AppEnv>): Promise<Scim> {
  const token = await scimToken(c);
  const db = database(c.env.DB);
  const idp = token.idp === null ? undefined : await idpStore.byId(db, token.idp);
  return { c, db, token, team: token.team, idp };
}

/** A live user of the token's team. */
export async function teamUser(s: Scim, id: string): Promise<UserRow | undefined> {
  const domain = deps(s.c).domain;
  const user = await userById(s.db, { id, domain });
  return user?.team === s.team && user.status !== 'deleted' ? user : undefined;
}

export async function viewOf(s: Scim, user: UserRow): Promise<ScimUserView> {
  return {
    user,
    record: await scimUserStore.byUser(s.db, s.team, user.id),
    role: await roleInTeam(s.db, s.team, user.id),
    richInfo: await richInfoOf(s.db, user.id),
    scimBaseUri: scimBaseUri(s.c),
  };
}
