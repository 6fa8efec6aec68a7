import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { base64url, sha256, sha256Hex } from '../../../shared/keys.js';
import type { AppEnv } from '../../api/app-env.js';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { commonErrors } from '../../api/errors/common.js';
import { oauthErrors } from '../../api/errors/oauth.js';
import { json, jsonBody } from '../../api/schemas/common.js';
import { refreshTokenId, signOAuthAccessToken, signRefreshToken } from '../../auth/oauth-tokens.js';
import { database, type Db } from '../../db/client.js';
import { emptyList, redirectUrl } from './oauth-clients.js';
import { oauthClient, oauthSettings, oauthSigningKey } from './oauth-context.js';
import { oauthStore, type OAuthClientRow } from './oauth-store.js';
import { deps } from '../../api/deps.js';

const tokenRequest = z
  .object({
    grant_type: z.string().openapi({ description: '`authorization_code` or `refresh_token`' }),
    client_id: z.uuid(),
    client_secret: z.string().optional().openapi({ description: 'Checked when given' }),
    code: z
      .string()
      .regex(/^[0-9a-f]+$/)
      .optional(),
    code_verifier: z.string().min(43).max(128).optional(),
    redirect_uri: redirectUrl.optional(),
    refresh_token: z.string().optional(),
  })
  .openapi('OAuthAccessTokenRequest');

const tokenResponse = z
  .object({
    access_token: z.string(),
    expires_in: z.int(),
    refresh_token: z.string(),
    token_type: z.literal('Bearer'),
  })
  .openapi('OAuthAccessTokenResponse');

type TokenRequest = z.infer<typeof tokenRequest>;

/** A confidential client that sends its secret must send the right one (public clients send none). */
async function checkSecret(client: OAuthClientRow, secret: string | undefined): Promise<void> {
  if (secret !== undefined && (await sha256Hex(secret)) !== client.secretHash)
    throw new ApiError(oauthErrors.invalidClientCredentials);
}

/** A new session: an access token and a refresh token naming the session's row. */
async function issueTokens(c: Context<AppEnv>, db: Db, grant: { client: string; user: string; scope: string }) {
  const settings = oauthSettings(c);
  const key = await oauthSigningKey(c);
  const id = crypto.randomUUID();
  const now = Date.now();
  await oauthStore.addRefreshToken(
    db,
    {
      id,
      client: grant.client,
      user: grant.user,
      scope: grant.scope,
      createdAt: now,
      expiresAt: now + settings.refreshTtlSeconds * 1000,
    },
    settings.maxRefreshTokens,
  );
  return {
    access_token: await signOAuthAccessToken(key, {
      domain: deps(c).domain,
      user: grant.user,
      scope: grant.scope,
      ttlSeconds: settings.accessTtlSeconds,
    }),
    expires_in: settings.accessTtlSeconds,
    refresh_token: await signRefreshToken(key, id),
    token_type: 'Bearer' as const,
  };
}

/** The authorization code grant with PKCE: the code is used up by the first attempt, right or wrong. */
async function codeGrant(
  c: Context<AppEnv>,
  r: TokenRequest & { code: string; code_verifier: string; redirect_uri: string },
) {
  if (r.grant_type !== 'authorization_code') throw new ApiError(oauthErrors.invalidGrantType);
  oauthSettings(c);
  const db = database(c.env.DB);
  const grant = await oauthStore.takeCode(db, await sha256Hex(r.code));
  if (grant === undefined) throw new ApiError(oauthErrors.codeNotFound);
  const { client } = await oauthClient(c, r.client_id);
  if (grant.redirectUri !== r.redirect_uri || client.redirectUrl !== r.redirect_uri)
    throw new ApiError(oauthErrors.redirectUrlMissMatch);
  // wire hands the code's grant to whichever client presents it; the grant belongs to one.
  if (grant.client !== client.id) throw new ApiError(oauthErrors.invalidGrant);
  await checkSecret(client, r.client_secret);
  if (base64url(await sha256(r.code_verifier)) !== grant.codeChallenge) throw new ApiError(oauthErrors.invalidGrant);
  return issueTokens(c, db, grant);
}

/** The refresh token grant: the old refresh token ends, a new one (same scopes) takes over. */
async function refreshGrant(c: Context<AppEnv>, r: TokenRequest & { refresh_token: string }) {
  if (r.grant_type !== 'refresh_token') throw new ApiError(oauthErrors.invalidGrantType);
  oauthSettings(c);
  const id = await refreshTokenId(await oauthSigningKey(c, 'verify'), r.refresh_token);
  const db = database(c.env.DB);
  const session = id === undefined ? undefined : await oauthStore.takeRefreshToken(db, id);
  if (session === undefined) throw new ApiError(oauthErrors.invalidRefreshToken);
  const { client } = await oauthClient(c, session.client);
  if (r.client_id !== client.id) throw new ApiError(oauthErrors.invalidClientCredentials);
  await checkSecret(client, r.client_secret);
  return issueTokens(c, db, session);
}

/** `POST /oauth/token` (form-encoded, no user token): the code grant or the refresh grant. */
export const createAccessToken = endpoint(
  {
    name: 'create-oauth-access-token',
    auth: 'none',
    method: 'post',
    path: '/oauth/token',
    summary: 'Create an OAuth access token',
    request: {
      body: { required: true, content: { 'application/x-www-form-urlencoded': { schema: tokenRequest } } },
    },
    errors: [
      commonErrors.badRequest,
      oauthErrors.redirectUrlMissMatch,
      oauthErrors.disabled,
      oauthErrors.invalidGrantType,
      oauthErrors.invalidRefreshToken,
      oauthErrors.invalidClientCredentials,
      oauthErrors.invalidGrant,
      oauthErrors.codeNotFound,
      oauthErrors.clientNotFound,
      oauthErrors.jwtError,
    ],
    responses: { 200: { description: 'The tokens', ...json(tokenResponse) } },
  },
  async (c) => {
    const r = c.req.valid('form');
    const { code, code_verifier, redirect_uri, refresh_token } = r;
    c.header('cache-control', 'no-store');
    if (code !== undefined && code_verifier !== undefined && redirect_uri !== undefined)
      return c.json(await codeGrant(c, { ...r, code, code_verifier, redirect_uri }), 200);
    if (refresh_token !== undefined) return c.json(await refreshGrant(c, { ...r, refresh_token }), 200);
    throw new ApiError(commonErrors.badRequest, 'Neither an authorization code nor a refresh token request');
  },
);

const revokeRequest = z
  .object({ client_id: z.uuid(), refresh_token: z.string() })
  .openapi('OAuthRevokeRefreshTokenRequest');

/** `POST /oauth/revoke`: an application ends its own session (its refresh token stops working). */
export const revokeRefreshToken = endpoint(
  {
    name: 'revoke-oauth-refresh-token',
    auth: 'none',
    method: 'post',
    path: '/oauth/revoke',
    summary: 'Revoke an OAuth refresh token',
    request: jsonBody(revokeRequest),
    errors: [oauthErrors.invalidRefreshToken, oauthErrors.disabled, oauthErrors.clientNotFound, oauthErrors.jwtError],
    responses: { 200: { description: 'Revoked', ...json(emptyList) } },
  },
  async (c) => {
    const body = c.req.valid('json');
    oauthSettings(c);
    const id = await refreshTokenId(await oauthSigningKey(c, 'verify'), body.refresh_token);
    const db = database(c.env.DB);
    const session = id === undefined ? undefined : await oauthStore.refreshToken(db, id);
    // wire does not look at client_id here; a client may end only its own sessions.
    if (session === undefined || session.client !== body.client_id) throw new ApiError(oauthErrors.invalidRefreshToken);
    await oauthClient(c, session.client);
    await oauthStore.deleteRefreshToken(db, session.id);
    return c.json([], 200);
  },
);
