import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { oauthErrors } from '../../api/errors/oauth.js';
import { json, jsonBody } from '../../api/schemas/common.js';
import { self } from '../../api/self.js';
import { database } from '../../db/client.js';
import { checkUserPassword } from '../password/passwords.js';
import { userStore } from '../users/user-store.js';
import { clientParam, emptyList } from './oauth-clients.js';
import { oauthClient } from './oauth-context.js';
import { oauthStore } from './oauth-store.js';

const session = z
  .object({ refresh_token_id: z.uuid(), created_at: z.string().openapi({ description: 'UTC, milliseconds' }) })
  .openapi('OAuthSession');

const application = z
  .object({
    id: z.uuid(),
    name: z.string().openapi({ description: "The OAuth client's name" }),
    sessions: z.array(session).openapi({ description: "The OAuth client's sessions" }),
  })
  .openapi('OAuthApplication');

const passwordBody = z.object({ password: z.string().min(6).max(1024).optional() }).openapi('PasswordReqBody');

/** `GET /oauth/applications`: the applications the user granted access, each with its live sessions. */
export const getApplications = endpoint(
  {
    name: 'get-oauth-applications',
    method: 'get',
    path: '/oauth/applications',
    summary: 'Get OAuth applications with account access',
    responses: { 200: { description: 'The applications', ...json(z.array(application)) } },
  },
  async (c) => {
    const db = database(c.env.DB);
    const sessions = await oauthStore.refreshTokensOf(db, self(c).user);
    const clients = await oauthStore.clients(db, [...new Set(sessions.map((s) => s.client))]);
    clients.sort((a, b) => a.id.localeCompare(b.id));
    return c.json(
      clients.map((client) => ({
        id: client.id,
        name: client.name,
        sessions: sessions
          .filter((s) => s.client === client.id)
          .map((s) => ({ refresh_token_id: s.id, created_at: new Date(s.createdAt).toISOString() })),
      })),
      200,
    );
  },
);

/** Ending sessions takes the user's password (403 `access-denied` without the right one). */
async function requirePassword(c: Context<AppEnv>, password: string | undefined): Promise<void> {
  const db = database(c.env.DB);
  const me = await userStore.byId(db, self(c).user);
  const ok =
    me !== undefined &&
    password !== undefined &&
    (await checkUserPassword(c.env, db, c.get('config'), { user: me.id }, me, password));
  if (!ok) throw new ApiError(oauthErrors.accessDenied);
}

/** `DELETE /oauth/applications/{id}/sessions` (v7+): ends all of the user's sessions with an application. */
export const revokeAccountAccess = endpoint(
  {
    name: 'revoke-oauth-account-access',
    from: 7,
    method: 'delete',
    path: '/oauth/applications/{OAuthClientId}/sessions',
    summary: 'Revoke access of an OAuth application',
    request: { params: clientParam, ...jsonBody(passwordBody) },
    errors: [oauthErrors.accessDenied],
    responses: { 204: { description: 'Revoked' } },
  },
  async (c) => {
    await requirePassword(c, c.req.valid('json').password);
    await oauthStore.deleteSessions(database(c.env.DB), self(c).user, c.req.valid('param').OAuthClientId);
    return c.body(null, 204);
  },
);

/** `DELETE /oauth/applications/{id}` (until v7): the same without a password. */
export const revokeAccountAccessV6 = endpoint(
  {
    name: 'revoke-oauth-account-access-v6',
    until: 7,
    method: 'delete',
    path: '/oauth/applications/{OAuthClientId}',
    summary: 'Revoke access of an OAuth application',
    request: { params: clientParam },
    responses: { 204: { description: 'Revoked' } },
  },
  async (c) => {
    await oauthStore.deleteSessions(database(c.env.DB), self(c).user, c.req.valid('param').OAuthClientId);
    return c.body(null, 204);
  },
);

/** `DELETE /oauth/applications/{id}/sessions/{rid}`: ends one session; its refresh token stops working. */
export const deleteSession = endpoint(
  {
    name: 'delete-oauth-refresh-token',
    method: 'delete',
    path: '/oauth/applications/{OAuthClientId}/sessions/{RefreshTokenId}',
    summary: 'Revoke an active OAuth session',
    request: { params: clientParam.extend({ RefreshTokenId: z.uuid() }), ...jsonBody(passwordBody) },
    errors: [oauthErrors.accessDenied, oauthErrors.clientNotFound],
    responses: { 200: { description: 'Revoked', ...json(emptyList) } },
  },
  async (c) => {
    const { OAuthClientId, RefreshTokenId } = c.req.valid('param');
    await requirePassword(c, c.req.valid('json').password);
    const { db } = await oauthClient(c, OAuthClientId);
    const s = await oauthStore.refreshToken(db, RefreshTokenId);
    // Another user's session is as unknown as none (wire does not check whose it is).
    if (s === undefined || s.user !== self(c).user) return c.json([], 200);
    if (s.client !== OAuthClientId) throw new ApiError(oauthErrors.clientNotFound);
    await oauthStore.deleteRefreshToken(db, s.id);
    return c.json([], 200);
  },
);
