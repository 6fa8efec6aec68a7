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

/** What a bot's token proves: the bot (a user), its service's provider and its one conversation. */
export interface BotClaims {
  bot: string;
  provider: string;
  conversation: string;
}

type Claims = {
  sub: string;
  typ: 'a' | 'u' | 'p' | 'b';
  cid?: string;
  con?: string;
  rid?: number;
  ses?: boolean;
  lh?: true;
  prv?: string;
  cnv?: string;
};

/** Signs the claims; without `expiresAt` the token never expires (bots' tokens, as zauth's `d=-1`). */
async function sign(keys: ZauthKeys, claims: Claims, expiresAt?: number): Promise<string> {
  const jwt = new SignJWT(claims).setProtectedHeader({ alg: ZAUTH_ALG, kid: String(keys.index) });
  return (expiresAt === undefined ? jwt : jwt.setExpirationTime(expiresAt)).sign(keys.signing);
}

type VerifiedClaims = Claims & { exp?: number };

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
    if (typeof claims.sub !== 'string') return undefined;
    if (typeof claims.exp !== 'number' && claims.typ !== 'b') return undefined;
    remember(keys, token, claims as VerifiedClaims);
    return claims as VerifiedClaims;
  } catch {
    return undefined;
  }
}

const nowSeconds = () => Math.floor(Date.now() / 1000);
const unexpired = (c: VerifiedClaims) => c.exp !== undefined && c.exp > nowSeconds();

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
  if (!opts.allowExpired && !unexpired(c)) return undefined;
  return {
    user: c.sub,
    connection: c.con,
    ...(c.cid === undefined ? {} : { client: c.cid }),
    ...(c.lh === true ? { legalhold: true as const } : {}),
  };
}

export async function verifyCookie(keys: ZauthKeys, token: string): Promise<CookieClaims | undefined> {
  const c = await verifiedClaims(keys, token);
  if (c?.typ !== 'u' || typeof c.rid !== 'number' || !unexpired(c)) return undefined;
  return { user: c.sub, id: c.rid, session: c.ses === true };
}

/** Whether a cookie is genuine but past its expiry (wire's zauth tells it apart: `Zauth token expired`). */
export async function isExpiredCookie(keys: ZauthKeys, token: string): Promise<boolean> {
  const c = await verifiedClaims(keys, token);
  return c?.typ === 'u' && !unexpired(c);
}

/**
 * Whether a token reads as an access token or a cookie at all, before its signature or expiry is
 * checked (zauth's parse): a compact JWS whose claims name that kind and a subject.
 */
export function readsAs(token: string, kind: 'access' | 'cookie'): boolean {
  try {
    const claims = decodeJwt(token) as Partial<Claims>;
    return typeof claims.sub === 'string' && claims.typ === (kind === 'access' ? 'a' : 'u');
  } catch {
    return false;
  }
}

/** A service provider's token (zauth's `p`): it names the provider and reaches only `/provider`. */
export function signProviderToken(keys: ZauthKeys, provider: string, expiresAt: number): Promise<string> {
  return sign(keys, { sub: provider, typ: 'p' }, expiresAt);
}

/** The provider a valid, unexpired provider token names. */
export async function verifyProviderToken(keys: ZauthKeys, token: string): Promise<string | undefined> {
  const c = await verifiedClaims(keys, token);
  return c?.typ === 'p' && unexpired(c) ? c.sub : undefined;
}

/** A bot's token (zauth's `b`): it never expires; removing the bot ends what it reaches. */
export function signBotToken(keys: ZauthKeys, b: BotClaims): Promise<string> {
  return sign(keys, { sub: b.bot, typ: 'b', prv: b.provider, cnv: b.conversation });
}

export async function verifyBotToken(keys: ZauthKeys, token: string): Promise<BotClaims | undefined> {
  const c = await verifiedClaims(keys, token);
  if (c?.typ !== 'b' || typeof c.prv !== 'string' || typeof c.cnv !== 'string') return undefined;
  return { bot: c.sub, provider: c.prv, conversation: c.cnv };
}

/** A fresh random 64-bit connection id, in decimal as nginz forwards it. */
export function newConnectionId(): string {
  const [hi, lo] = crypto.getRandomValues(new Uint32Array(2));
  return ((BigInt(hi!) << 32n) | BigInt(lo!)).toString();
}
