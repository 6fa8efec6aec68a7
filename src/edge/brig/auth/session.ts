import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { zauthKeys, type ZauthKeys } from '../../auth/keys.js';
import { issueCookie, setCookieHeader, type CookieKind } from './cookie-records.js';

/** This isolate's token keys (imported once). */
export function keysOf(c: Context<AppEnv>): Promise<ZauthKeys> {
  return zauthKeys(c.env, c.get('config').brig.zauth.keyIndex);
}

/** Issues a new `zuid` cookie for the user: its `Set-Cookie` value. */
export async function newCookieHeader(
  c: Context<AppEnv>,
  user: string,
  o: { kind: CookieKind; label?: string | undefined },
): Promise<string> {
  const config = c.get('config');
  return setCookieHeader(config, await issueCookie(c.env, await keysOf(c), config, user, o));
}
