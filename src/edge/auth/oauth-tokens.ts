import { decodeProtectedHeader, importJWK, jwtVerify, SignJWT, type JWK } from 'jose';

/** The scopes brig grants, in wire's order (a token's `scope` lists them in it). */
export const OAUTH_SCOPES = [
  'read:feature_configs',
  'read:self',
  'write:conversations',
  'write:conversations_code',
] as const;

function importOAuthKey(jwkText: string, use: 'sign' | 'verify'): Promise<CryptoKey> {
  const { d, ...pub } = JSON.parse(jwkText) as JWK;
  const jwk = use === 'sign' ? { ...pub, d } : pub;
  return importJWK({ ...jwk, alg: 'EdDSA' }, 'EdDSA') as Promise<CryptoKey>;
}

/** The Ed25519 key pair's JWK as a signing key (for `fromConfigFile`, which imports it once). */
export const oauthSigningKeyOf = (jwkText: string) => importOAuthKey(jwkText, 'sign');
/** A JWK of the key pair (or its public half) as a verifying key. */
export const oauthVerifyingKeyOf = (jwkText: string) => importOAuthKey(jwkText, 'verify');

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** An access token for a third-party application: the user, the scopes, issued and meant for this domain. */
export function signOAuthAccessToken(
  key: CryptoKey,
  t: { domain: string; user: string; scope: string; ttlSeconds: number },
): Promise<string> {
  const iat = nowSeconds();
  return new SignJWT({ scope: t.scope })
    .setProtectedHeader({ alg: 'EdDSA' })
    .setIssuer(t.domain)
    .setAudience(t.domain)
    .setSubject(t.user)
    .setIssuedAt(iat)
    .setExpirationTime(iat + t.ttlSeconds)
    .sign(key);
}

/** A refresh token names only its row; the row's life is the token's. */
export function signRefreshToken(key: CryptoKey, id: string): Promise<string> {
  return new SignJWT({}).setProtectedHeader({ alg: 'EdDSA' }).setSubject(id).sign(key);
}

async function verified(key: CryptoKey, token: string, leeway = 0) {
  try {
    return (await jwtVerify(token, key, { algorithms: ['EdDSA'], clockTolerance: leeway })).payload;
  } catch {
    return undefined;
  }
}

/** The refresh token's row id, when the token is one of ours. */
export async function refreshTokenId(key: CryptoKey, token: string): Promise<string | undefined> {
  const claims = await verified(key, token);
  return typeof claims?.sub === 'string' ? claims.sub : undefined;
}

/** Whether a bearer token is an OAuth one: no `kid` (zauth's tokens name their key). */
export function looksLikeOAuthToken(token: string): boolean {
  try {
    const header = decodeProtectedHeader(token);
    return header.alg === 'EdDSA' && header.kid === undefined;
  } catch {
    return false;
  }
}

/** A valid, unexpired OAuth access token's user and scopes (a second of clock skew allowed, as nginz). */
export async function verifyOAuthAccessToken(
  key: CryptoKey,
  token: string,
): Promise<{ user: string; scopes: string[] } | undefined> {
  const claims = await verified(key, token, 1);
  if (typeof claims?.sub !== 'string' || typeof claims.exp !== 'number') return undefined;
  const scope = typeof claims.scope === 'string' ? claims.scope : '';
  return { user: claims.sub, scopes: scope.split(' ').filter((s) => s !== '') };
}
