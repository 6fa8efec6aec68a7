import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { ApiError } from '../../api/errors/api-error.js';
import { domainErrors } from '../../api/errors/domains.js';
import { self } from '../../api/self.js';
import { database } from '../../db/client.js';
import { featureEnabled, roleInTeam } from '../../galley/face.js';
import { userStore } from '../users/user-store.js';

/**
 * The team of the caller when they may manage its domains, in wire's order: 403 without a team (or
 * for another team than `expected`), 402 while the team's `domainRegistration` feature is off (what
 * the customer has not paid for), then 403 for members who are neither admin nor owner.
 */
export async function domainTeamAdmin(c: Context<AppEnv>, expected?: string): Promise<string> {
  const db = database(c.env.DB);
  const user = await userStore.byId(db, self(c).user);
  const team = user?.team ?? null;
  if (team === null || (expected !== undefined && expected !== team))
    throw new ApiError(domainErrors.operationForbidden);
  const role = await roleInTeam(db, team, user!.id);
  if (role === undefined) throw new ApiError(domainErrors.operationForbidden);
  if (!(await featureEnabled(db, c.get('config'), team, 'domainRegistration')))
    throw new ApiError(domainErrors.paymentRequired);
  if (role !== 'owner' && role !== 'admin') throw new ApiError(domainErrors.operationForbidden);
  return team;
}
