import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { zauthKeys, type ZauthKeys } from '../../auth/keys.js';
import { database } from '../../db/client.js';
import { issueCookie, setCookieHeader, type CookieKind, type CookieRow } from './cookie-store.js';

/** This isolate's token keys (imported once). */
export function keysOf(c: Context<AppEnv>): Promise<ZauthKeys> {
  return zauthKeys(c.env, c.get('config').brig.zauth.keyIndex);
}

/** Issues a new `zuid` cookie for the user: its record and its `Set-Cookie` value. */
export async function newCookie(
  c: Context<AppEnv>,
  user: string,
  o: { kind: CookieKind; label?: string | undefined; legalhold?: boolean },
): Promise<{ row: CookieRow; header: string }> {
  const config = c.get('config');
  const issued = await issueCookie(database(c.env.DB), await keysOf(c), config, user, o);
  return { row: issued.row, header: setCookieHeader(config, issued) };
}

export async function newCookieHeader(
  c: Context<AppEnv>,
  user: string,
  o: { kind: CookieKind; label?: string | undefined },
): Promise<string> {
  return (await newCookie(c, user, o)).header;
}
