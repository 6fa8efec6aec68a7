import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { brigErrors } from '../../api/errors/brig.js';
import { sparErrors } from '../../api/errors/spar.js';
import { json, jsonBody } from '../../api/schemas/common.js';
import { checkUserPassword, enforceVerificationCode, type UserRow } from '../../brig/face.js';
import { database, type Db } from '../../db/client.js';
import { idpStore } from '../idp/idp-store.js';
import { teamAdmin } from '../team-admin.js';
import { scimTokenStore, type ScimTokenRow } from './scim-token-store.js';
import { newScimSecret, scimSecretHash } from './token-secret.js';

const tokenInfoV7 = z
  .object({
    team: z.uuid(),
    id: z.uuid(),
    created_at: z.string(),
    idp: z.uuid().optional(),
    description: z.string(),
  })
  .openapi('ScimTokenInfoV7');
const tokenInfo = tokenInfoV7.extend({ name: z.string() }).openapi('ScimTokenInfo');

const createBodyV7 = z.object({
  description: z.string(),
  password: z.string().min(6).max(1024).nullish(),
  verification_code: z.string().nullish(),
});
const createBody = createBodyV7.extend({ name: z.string().nullish(), idp: z.uuid().nullish() });

/** Token info in the shape of the caller's API version: names came with v8's routes. */
function infoJson(row: ScimTokenRow, named: boolean) {
  return {
    team: row.team,
    id: row.id,
    created_at: new Date(row.createdAt).toISOString(),
    ...(row.idp === null ? {} : { idp: row.idp }),
    description: row.description,
    ...(named ? { name: row.name } : {}),
  };
}

/**
 * Creating a token proves the admin is at the keyboard: their password when they have one
 * (403 `access-denied`), then the second factor when the team demands it. SSO users have neither.
 */
async function reauthenticate(
  c: Context<AppEnv>,
  db: Db,
  user: UserRow,
  body: z.infer<typeof createBodyV7>,
): Promise<void> {
  const config = c.get('config');
  if (user.password !== null) {
    const password = body.password ?? undefined;
    if (password === undefined || !(await checkUserPassword(c.env, db, config, { user: user.id }, user, password)))
      throw new ApiError(sparErrors.reauthRequired);
  }
  await enforceVerificationCode(db, config, user, 'create_scim_token', body.verification_code ?? undefined);
}

const createErrors = [
  sparErrors.insufficientPermissions,
  sparErrors.noTeamMember,
  sparErrors.reauthRequired,
  brigErrors.codeAuthenticationRequired,
  brigErrors.codeAuthenticationFailed,
  sparErrors.tokenLimitReached,
] as const;

/** The IdP a new token provisions users for: one of the team's, or none (email users). */
async function tokenIdp(db: Db, team: string, idp: string | null | undefined, v7: boolean): Promise<string | null> {
  if (v7) {
    // Before v8 a token could not name its IdP: it took the team's only one.
    const idps = await idpStore.ofTeam(db, team);
    if (idps.length > 1) throw new ApiError(sparErrors.moreThanOneIdp);
    return idps[0]?.id ?? null;
  }
  if (idp === null || idp === undefined) return null;
  if ((await idpStore.byId(db, idp))?.team !== team) throw new ApiError(sparErrors.idpNotFound);
  return idp;
}

const createTokenRoute = (v7: boolean) =>
  endpoint(
    {
      name: v7 ? 'auth-tokens-create@v7' : 'auth-tokens-create',
      method: 'post',
      path: '/scim/auth-tokens',
      ...(v7 ? { until: 8 as const } : { from: 8 as const }),
      request: jsonBody(v7 ? createBodyV7.openapi('CreateScimTokenV7') : createBody.openapi('CreateScimToken')),
      errors: v7 ? [...createErrors, sparErrors.moreThanOneIdp] : [...createErrors, sparErrors.idpNotFound],
      responses: {
        200: {
          description: 'The secret (shown only now) and what it is',
          ...json(z.object({ token: z.string(), info: v7 ? tokenInfoV7 : tokenInfo })),
        },
      },
    },
    async (c) => {
      const { user, team } = await teamAdmin(c, 'CreateReadDeleteScimToken');
      const body = c.req.valid('json') as z.infer<typeof createBody>;
      const db = database(c.env.DB);
      await reauthenticate(c, db, user, body);
      if ((await scimTokenStore.countOfTeam(db, team)) >= c.get('config').spar.maxScimTokens)
        throw new ApiError(sparErrors.tokenLimitReached);
      const secret = newScimSecret();
      const id = crypto.randomUUID();
      const row: ScimTokenRow = {
        id,
        team,
        hash: await scimSecretHash(secret),
        idp: await tokenIdp(db, team, body.idp, v7),
        description: body.description,
        name: (v7 ? undefined : body.name) ?? id,
        createdAt: Date.now(),
      };
      await scimTokenStore.insert(db, row).run();
      return c.json({ token: secret, info: infoJson(row, !v7) }, 200);
    },
  );

export const createScimTokenV7 = createTokenRoute(true);
export const createScimToken = createTokenRoute(false);

const listTokensRoute = (v7: boolean) =>
  endpoint(
    {
      name: v7 ? 'auth-tokens-list@v7' : 'auth-tokens-list',
      method: 'get',
      path: '/scim/auth-tokens',
      ...(v7 ? { until: 8 as const } : { from: 8 as const }),
      errors: [sparErrors.insufficientPermissions, sparErrors.noTeamMember],
      responses: {
        200: {
          description: "The team's tokens, oldest first",
          ...json(z.object({ tokens: z.array(v7 ? tokenInfoV7 : tokenInfo) })),
        },
      },
    },
    async (c) => {
      const { team } = await teamAdmin(c, 'CreateReadDeleteScimToken');
      const rows = await scimTokenStore.ofTeam(database(c.env.DB), team);
      return c.json({ tokens: rows.map((r) => infoJson(r, !v7)) }, 200);
    },
  );

export const listScimTokensV7 = listTokensRoute(true);
export const listScimTokens = listTokensRoute(false);

export const deleteScimToken = endpoint(
  {
    name: 'auth-tokens-delete',
    method: 'delete',
    path: '/scim/auth-tokens',
    request: { query: z.object({ id: z.uuid() }) },
    errors: [sparErrors.insufficientPermissions, sparErrors.noTeamMember],
    responses: { 204: { description: 'The token no longer works (also when it did not exist)' } },
  },
  async (c) => {
    const { team } = await teamAdmin(c, 'CreateReadDeleteScimToken');
    await scimTokenStore.delete(database(c.env.DB), team, c.req.valid('query').id).run();
    return c.body(null, 204);
  },
);

export const renameScimToken = endpoint(
  {
    name: 'auth-tokens-put-name',
    method: 'put',
    path: '/scim/auth-tokens/{id}',
    from: 8,
    request: {
      params: z.object({ id: z.uuid() }),
      ...jsonBody(z.object({ name: z.string() }).openapi('ScimTokenName')),
    },
    errors: [sparErrors.insufficientPermissions, sparErrors.noTeamMember],
    responses: {
      200: { description: 'Renamed (nothing happens to an unknown id)', ...json(z.array(z.string()).max(0)) },
    },
  },
  async (c) => {
    const { team } = await teamAdmin(c, 'CreateReadDeleteScimToken');
    await scimTokenStore.rename(database(c.env.DB), team, c.req.valid('param').id, c.req.valid('json').name).run();
    return c.json([], 200);
  },
);
