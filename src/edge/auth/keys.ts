import { importJWK, type JWK } from 'jose';

export const ZAUTH_ALG = 'EdDSA';

/** Signing and verification keys of access tokens and cookies, imported once per isolate. */
export interface ZauthKeys {
  /** 1-based index of the signing key (the token header's `kid`). */
  index: number;
  signing: CryptoKey;
  verifying: ReadonlyMap<string, CryptoKey>;
}

function isEd25519PrivateJwk(v: unknown): v is JWK & { d: string; x: string } {
  const k = v as Record<string, unknown>;
  return (
    typeof v === 'object' &&
    v !== null &&
    k.kty === 'OKP' &&
    k.crv === 'Ed25519' &&
    typeof k.d === 'string' &&
    typeof k.x === 'string'
  );
}

/**
 * `ZAUTH_KEYS` is a JSON array of Ed25519 private JWKs. The key at `keyIndex` signs; all of them
 * verify, so keys can be rotated by appending a new one and moving the index.
 */
export async function importZauthKeys(secret: string | undefined, keyIndex: number): Promise<ZauthKeys> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(secret ?? '');
  } catch {
    throw new Error('ZAUTH_KEYS is missing or not JSON');
  }
  if (!Array.isArray(parsed) || parsed.length === 0 || !parsed.every(isEd25519PrivateJwk))
    throw new Error('ZAUTH_KEYS must be a non-empty JSON array of Ed25519 private JWKs');
  const jwk = parsed[keyIndex - 1];
  if (jwk === undefined)
    throw new Error(`zauth.keyIndex ${keyIndex} is beyond the ${parsed.length} key(s) of ZAUTH_KEYS`);
  const verifying = new Map<string, CryptoKey>();
  for (const [i, k] of parsed.entries()) {
    const { d: _private, ...pub } = k;
    verifying.set(String(i + 1), (await importJWK({ ...pub, alg: ZAUTH_ALG }, ZAUTH_ALG)) as CryptoKey);
  }
  return { index: keyIndex, signing: (await importJWK({ ...jwk, alg: ZAUTH_ALG }, ZAUTH_ALG)) as CryptoKey, verifying };
}

let cached: { secret: string | undefined; index: number; keys: Promise<ZauthKeys> } | undefined;

/** The keys of this isolate's ZAUTH_KEYS, imported once (hot paths must not re-import keys). */
export function zauthKeys(env: { ZAUTH_KEYS?: string }, keyIndex: number): Promise<ZauthKeys> {
  if (cached === undefined || cached.secret !== env.ZAUTH_KEYS || cached.index !== keyIndex)
    cached = { secret: env.ZAUTH_KEYS, index: keyIndex, keys: importZauthKeys(env.ZAUTH_KEYS, keyIndex) };
  return cached.keys;
}
