import { compactVerify, decodeJwt, SignJWT } from 'jose';
import { ZAUTH_ALG, type ZauthKeys } from './keys.js';

/** What an access token proves: the user, the client it is bound to, and its connection id. */
export interface AccessClaims {
  user: string;
  client?: string;
  /** nginz's Z-Connection: a random 64-bit id per token, used not to echo events to their cause. */
  connection: string;
  /** Held by a legal hold service: reaches only what its device needs (nginz's `la` tokens). */
  legalhold?: true;
}

/** What a cookie (zauth "user token") proves; `id` names the cookie row that can revoke it. */
export interface CookieClaims {
  user: string;
  id: number;
  session: boolean;
}

type Claims = { sub: string; typ: 'a' | 'u' | 'p'; cid?: string; con?: string; rid?: number; ses?: boolean; lh?: true };

async function sign(keys: ZauthKeys, claims: Claims, expiresAt: number): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: ZAUTH_ALG, kid: String(keys.index) })
    .setExpirationTime(expiresAt)
    .sign(keys.signing);
}

type VerifiedClaims = Claims & { exp: number };

/**
 * Tokens whose signature this isolate has already checked, per key set, with their claims. Only
 * the signature check is skipped on a hit: expiry is the callers' concern on every use, and
 * revocation lives outside the token (cookie rows). Bounded: the oldest entry goes first.
 */
const verified = new WeakMap<ZauthKeys, Map<string, VerifiedClaims>>();
const MAX_VERIFIED = 10_000;

function remember(keys: ZauthKeys, token: string, claims: VerifiedClaims): void {
  let cache = verified.get(keys);
  if (cache === undefined) verified.set(keys, (cache = new Map()));
  if (cache.size >= MAX_VERIFIED) cache.delete(cache.keys().next().value!);
  cache.set(token, claims);
}

/** Checks the signature only; `exp` is the caller's concern (an expired token may still name its user). */
async function verifiedClaims(keys: ZauthKeys, token: string): Promise<VerifiedClaims | undefined> {
  const known = verified.get(keys)?.get(token);
  if (known !== undefined) return known;
  try {
    const { kid } = JSON.parse(atob(token.split('.')[0]!.replace(/-/g, '+').replace(/_/g, '/'))) as { kid?: string };
    const key = kid === undefined ? undefined : keys.verifying.get(kid);
    if (key === undefined) return undefined;
    await compactVerify(token, key, { algorithms: [ZAUTH_ALG] });
    const claims = decodeJwt(token) as Partial<VerifiedClaims>;
    if (typeof claims.sub !== 'string' || typeof claims.exp !== 'number') return undefined;
    remember(keys, token, claims as VerifiedClaims);
    return claims as VerifiedClaims;
  } catch {
    return undefined;
  }
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

export function signAccessToken(keys: ZauthKeys, c: AccessClaims, expiresAt: number): Promise<string> {
  const claims: Claims = { sub: c.user, typ: 'a', con: c.connection };
  if (c.client !== undefined) claims.cid = c.client;
  if (c.legalhold) claims.lh = true;
  return sign(keys, claims, expiresAt);
}

export function signCookie(keys: ZauthKeys, c: CookieClaims, expiresAt: number): Promise<string> {
  return sign(keys, { sub: c.user, typ: 'u', rid: c.id, ses: c.session }, expiresAt);
}

/** A valid, unexpired access token's claims; `allowExpired` serves `/access`, which takes the old token. */
export async function verifyAccessToken(
  keys: ZauthKeys,
  token: string,
  opts: { allowExpired?: boolean } = {},
): Promise<AccessClaims | undefined> {
  const c = await verifiedClaims(keys, token);
  if (c?.typ !== 'a' || typeof c.con !== 'string') return undefined;
  if (!opts.allowExpired && c.exp <= nowSeconds()) return undefined;
  return {
    user: c.sub,
    connection: c.con,
    ...(c.cid === undefined ? {} : { client: c.cid }),
    ...(c.lh === true ? { legalhold: true as const } : {}),
  };
}

export async function verifyCookie(keys: ZauthKeys, token: string): Promise<CookieClaims | undefined> {
  const c = await verifiedClaims(keys, token);
  if (c?.typ !== 'u' || typeof c.rid !== 'number' || c.exp <= nowSeconds()) return undefined;
  return { user: c.sub, id: c.rid, session: c.ses === true };
}

/** A service provider's token (zauth's `p`): it names the provider and reaches only `/provider`. */
export function signProviderToken(keys: ZauthKeys, provider: string, expiresAt: number): Promise<string> {
  return sign(keys, { sub: provider, typ: 'p' }, expiresAt);
}

/** The provider a valid, unexpired provider token names. */
export async function verifyProviderToken(keys: ZauthKeys, token: string): Promise<string | undefined> {
  const c = await verifiedClaims(keys, token);
  return c?.typ === 'p' && c.exp > nowSeconds() ? c.sub : undefined;
}

/** A fresh random 64-bit connection id, in decimal as nginz forwards it. */
export function newConnectionId(): string {
  const [hi, lo] = crypto.getRandomValues(new Uint32Array(2));
  return ((BigInt(hi!) << 32n) | BigInt(lo!)).toString();
}
