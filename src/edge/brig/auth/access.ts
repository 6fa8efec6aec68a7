import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { brigErrors } from '../../api/errors/brig.js';
import { json } from '../../api/schemas/common.js';
import type { ZauthKeys } from '../../auth/keys.js';
import { accessTokenOf } from '../../auth/request-token.js';
import { type AccessClaims, isExpiredCookie, readsAs, verifyAccessToken, verifyCookie } from '../../auth/tokens.js';
import { database } from '../../db/client.js';
import { clientStore } from '../clients/client-store.js';
import { accessTokenJson, issueAccessToken } from './access-token.js';
import { cookieRecords, cookieTokensOf, type CookieRow, renewCookie, setCookieHeader } from './cookie-records.js';
import { keysOf } from './session.js';

const refuse = (message: string) => new ApiError(brigErrors.invalidCredentials, message);

/**
 * The `zuid` cookies that read as cookies. Given only unreadable ones, the request is refused as
 * wire's brig refuses it (403 `client-error`); unreadable ones beside a readable one are ignored.
 */
function readableCookies(header: string | undefined): string[] {
  const tokens = cookieTokensOf(header);
  const readable = tokens.filter((t) => readsAs(t, 'cookie'));
  if (tokens.length > 0 && readable.length === 0) throw new ApiError(brigErrors.unreadableToken);
  return readable;
}

/** The access token given along, if any; one that does not read as one is refused (403 `client-error`). */
function readableBearer(c: Context<AppEnv>): string | undefined {
  const token = accessTokenOf(c.req.raw, new URL(c.req.url));
  if (token !== undefined && !readsAs(token, 'access')) throw new ApiError(brigErrors.unreadableToken);
  return token;
}

/** The first cookie that verifies and is still on record (a superseded one stands for its successor). */
async function cookieOnRecord(env: Env, keys: ZauthKeys, tokens: readonly string[]): Promise<CookieRow> {
  if (tokens.length === 0) throw refuse('Missing cookie');
  let expired = false;
  for (const token of tokens) {
    const claims = await verifyCookie(keys, token);
    if (claims === undefined) {
      expired ||= await isExpiredCookie(keys, token);
      continue;
    }
    const row = await cookieRecords.live(env, claims.user, claims.id);
    if (row !== undefined) return row;
  }
  throw refuse(expired ? 'Zauth token expired' : 'Invalid zauth token');
}

/** The cookie of a `Cookie` header that verifies and is still on record. */
export function validCookie(env: Env, keys: ZauthKeys, header: string | undefined): Promise<CookieRow> {
  return cookieOnRecord(env, keys, readableCookies(header));
}

/**
 * The cookie and the access token given along, as wire's brig reads them: both must read as such
 * before either is checked. The token must be for the cookie's user (expired is fine, falsified is not).
 */
async function presented(
  c: Context<AppEnv>,
  keys: ZauthKeys,
  tokenRequired: boolean,
): Promise<{ row: CookieRow; old: AccessClaims | undefined }> {
  const cookies = readableCookies(c.req.header('cookie'));
  const token = readableBearer(c);
  if (cookies.length === 0) throw refuse('Missing cookie');
  if (token === undefined && tokenRequired) throw refuse('Missing token');
  const row = await cookieOnRecord(c.env, keys, cookies);
  if (token === undefined) return { row, old: undefined };
  const old = await verifyAccessToken(keys, token, { allowExpired: true });
  if (old?.user !== row.user) throw refuse('Invalid zauth token');
  return { row, old };
}

/** A persistent cookie older than `setUserCookieRenewAge` is replaced by a successor. */
async function renewIfOld(c: Context<AppEnv>, keys: ZauthKeys, row: CookieRow): Promise<void> {
  const config = c.get('config');
  const renewAge = config.brig.optSettings.setUserCookieRenewAge;
  if (row.kind !== 'persistent' || Date.now() - row.createdAt < renewAge * 1000) return;
  c.header('set-cookie', setCookieHeader(config, await renewCookie(c.env, keys, config, row)));
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
    errors: [brigErrors.invalidCredentials, brigErrors.unreadableToken],
    responses: { 200: { description: 'A new access token', ...json(accessTokenJson) } },
  },
  async (c) => {
    const db = database(c.env.DB);
    const keys = await keysOf(c);
    const { row, old } = await presented(c, keys, false);
    let client = row.client ?? undefined;
    const wanted = c.req.valid('query').client_id;
    // The first client_id given binds the cookie's tokens to that client; later ones are ignored.
    if (client === undefined && wanted !== undefined) {
      if ((await clientStore.get(db, row.user, wanted)) === undefined) throw refuse('Invalid zauth token');
      await cookieRecords.bindClient(c.env, row.user, row.id, wanted);
      client = wanted;
    }
    await renewIfOld(c, keys, { ...row, client: client ?? null });
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
    errors: [brigErrors.invalidCredentials, brigErrors.unreadableToken],
    responses: { 200: { description: 'Logged out: the cookie is revoked' } },
  },
  async (c) => {
    const keys = await keysOf(c);
    const { row } = await presented(c, keys, true);
    await cookieRecords.revoke(c.env, row.user, { ids: [row.id] });
    return c.body(null, 200);
  },
);
