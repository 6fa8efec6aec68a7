import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { brigErrors } from '../../api/errors/brig.js';
import { json } from '../../api/schemas/common.js';
import type { ZauthKeys } from '../../auth/keys.js';
import { accessTokenOf } from '../../auth/request-token.js';
import { type AccessClaims, verifyAccessToken, verifyCookie } from '../../auth/tokens.js';
import { database, type Db } from '../../db/client.js';
import { clientStore } from '../clients/client-store.js';
import { accessTokenJson, issueAccessToken } from './access-token.js';
import { cookieStore, cookieTokensOf, type CookieRow } from './cookie-store.js';
import { keysOf, newCookie } from './session.js';

const refuse = (message: string) => new ApiError(brigErrors.invalidCredentials, message);

/** The first `zuid` cookie that verifies and is still on record (a superseded one stands for its successor). */
export async function validCookie(db: Db, keys: ZauthKeys, header: string | undefined): Promise<CookieRow> {
  const tokens = cookieTokensOf(header);
  if (tokens.length === 0) throw refuse('Missing cookie');
  for (const token of tokens) {
    const claims = await verifyCookie(keys, token);
    if (claims === undefined) continue;
    const row = await cookieStore.find(db, claims.user, claims.id);
    if (row === undefined) continue;
    if (row.successor === null) return row;
    const successor = await cookieStore.find(db, claims.user, row.successor);
    if (successor !== undefined) return successor;
  }
  throw refuse('Invalid zauth token');
}

/** An access token given along must be for the cookie's user (expired is fine, falsified is not). */
async function checkOldToken(c: Context<AppEnv>, keys: ZauthKeys, user: string): Promise<AccessClaims | undefined> {
  const token = accessTokenOf(c.req.raw, new URL(c.req.url));
  if (token === undefined) return undefined;
  const claims = await verifyAccessToken(keys, token, { allowExpired: true });
  if (claims?.user !== user) throw refuse('Invalid zauth token');
  return claims;
}

/** A persistent cookie older than `setUserCookieRenewAge` is replaced by a successor. */
async function renewIfOld(c: Context<AppEnv>, db: Db, row: CookieRow): Promise<void> {
  const renewAge = c.get('config').brig.optSettings.setUserCookieRenewAge;
  if (row.kind !== 'persistent' || Date.now() - row.createdAt < renewAge * 1000) return;
  const next = await newCookie(c, row.user, {
    kind: row.kind,
    label: row.label ?? undefined,
    legalhold: row.legalhold,
  });
  if (row.client !== null) await cookieStore.bindClient(db, row.user, next.row.id, row.client);
  await cookieStore.setSuccessor(db, row.user, row.id, next.row.id);
  c.header('set-cookie', next.header);
}

export const postAccess = endpoint(
  {
    name: 'access',
    method: 'post',
    path: '/access',
    auth: 'none',
    request: {
      query: z.object({
        client_id: z
          .string()
          .regex(/^[0-9a-f]{1,16}$/)
          .optional(),
      }),
    },
    errors: [brigErrors.invalidCredentials],
    responses: { 200: { description: 'A new access token', ...json(accessTokenJson) } },
  },
  async (c) => {
    const db = database(c.env.DB);
    const keys = await keysOf(c);
    const row = await validCookie(db, keys, c.req.header('cookie'));
    const old = await checkOldToken(c, keys, row.user);
    let client = row.client ?? undefined;
    const wanted = c.req.valid('query').client_id;
    // The first client_id given binds the cookie's tokens to that client; later ones are ignored.
    if (client === undefined && wanted !== undefined) {
      if ((await clientStore.get(db, row.user, wanted)) === undefined) throw refuse('Invalid zauth token');
      await cookieStore.bindClient(db, row.user, row.id, wanted);
      client = wanted;
    }
    await renewIfOld(c, db, row);
    // A renewed token keeps the old one's connection, as wire's does: the client's websocket,
    // opened with an earlier token, is still the connection its requests' events are not echoed to.
    const token = await issueAccessToken(keys, c.get('config'), row.user, client, {
      legalhold: row.legalhold,
      connection: old?.connection,
    });
    return c.json(token, 200);
  },
);

export const logout = endpoint(
  {
    name: 'logout',
    method: 'post',
    path: '/access/logout',
    auth: 'none',
    errors: [brigErrors.invalidCredentials],
    responses: { 200: { description: 'Logged out: the cookie is revoked' } },
  },
  async (c) => {
    const db = database(c.env.DB);
    const keys = await keysOf(c);
    const token = accessTokenOf(c.req.raw, new URL(c.req.url));
    if (token === undefined) throw refuse('Missing token');
    const row = await validCookie(db, keys, c.req.header('cookie'));
    await checkOldToken(c, keys, row.user);
    await cookieStore.revoke(db, row.user, { ids: [row.id] });
    return c.body(null, 200);
  },
);
