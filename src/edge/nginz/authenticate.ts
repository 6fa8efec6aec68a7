import type { ZauthKeys } from '../auth/keys.js';
import { accessTokenOf } from '../auth/request-token.js';
import { verifyAccessToken, type AccessClaims } from '../auth/tokens.js';

/** The caller's verified identity, or `undefined` (no token, a bad one, or an expired one). */
export async function authenticate(req: Request, url: URL, keys: ZauthKeys): Promise<AccessClaims | undefined> {
  const token = accessTokenOf(req, url);
  return token === undefined ? undefined : verifyAccessToken(keys, token);
}
