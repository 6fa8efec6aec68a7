import type { ZauthKeys } from '../auth/keys.js';
import { verifyAccessToken, type AccessClaims } from '../auth/tokens.js';

/**
 * The access token of a request, as nginz accepts it: `Authorization: Bearer`, the
 * `access_token` query parameter (websockets), or an `AWS4-HMAC-SHA256 Credential=` header.
 */
export function accessTokenOf(req: Request, url: URL): string | undefined {
  const header = req.headers.get('authorization')?.trim();
  if (header !== undefined) {
    const bearer = /^Bearer\s+(\S+)$/i.exec(header);
    if (bearer) return bearer[1];
    const aws = /^AWS4-HMAC-SHA256\s+Credential=([^,\s]+)/i.exec(header);
    if (aws) return aws[1];
  }
  return url.search === '' ? undefined : (url.searchParams.get('access_token') ?? undefined);
}

/** The caller's verified identity, or `undefined` (no token, a bad one, or an expired one). */
export async function authenticate(req: Request, url: URL, keys: ZauthKeys): Promise<AccessClaims | undefined> {
  const token = accessTokenOf(req, url);
  return token === undefined ? undefined : verifyAccessToken(keys, token);
}
