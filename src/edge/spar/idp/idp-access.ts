import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { ApiError } from '../../api/errors/api-error.js';
import { sparErrors } from '../../api/errors/spar.js';
import type { UserRow } from '../../brig/face.js';
import { database } from '../../db/client.js';
import { teamAdmin } from '../team-admin.js';
import { idpStore, type IdpRow } from './idp-store.js';

/** An IdP of the caller's team, when they may manage it: 404 `not-found`, 403 for another team's. */
export async function ownIdp(c: Context<AppEnv>, id: string): Promise<{ idp: IdpRow; team: string; user: UserRow }> {
  const { team, user } = await teamAdmin(c, 'CreateUpdateDeleteIdp');
  const idp = await idpStore.byId(database(c.env.DB), id);
  if (idp === undefined) throw new ApiError(sparErrors.idpNotFound);
  if (idp.team !== team) throw new ApiError(sparErrors.insufficientPermissions);
  return { idp, team, user };
}
