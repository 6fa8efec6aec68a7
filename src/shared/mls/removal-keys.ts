import { fromBase64url } from '../base64.js';
import { base64url as toBase64url } from '../keys.js';
import { SIGNATURE_SCHEMES, type SignatureScheme } from './suites.js';

/** A removal key's public half, as clients are told it. */
export interface RemovalPublicKey {
  /** Ed25519: the 32 raw bytes; ECDSA: the uncompressed point `04 ‖ x ‖ y`. */
  publicRaw: Uint8Array;
  /** The public JWK (`GET /mls/public-keys?format=jwk`). */
  publicJwk: Record<string, string>;
}

/** One removal key: what signs the backend's proposals and what clients are told. */
interface RemovalKey extends RemovalPublicKey {
  /** Ed25519: the 32-byte seed; ECDSA: the private scalar. */
  signKey: Uint8Array;
}

export type RemovalKeys = Record<SignatureScheme, RemovalKey>;

const CURVES: Record<SignatureScheme, { kty: 'OKP' | 'EC'; crv: string; size: number }> = {
  ed25519: { kty: 'OKP', crv: 'Ed25519', size: 32 },
  ecdsa_secp256r1_sha256: { kty: 'EC', crv: 'P-256', size: 32 },
  ecdsa_secp384r1_sha384: { kty: 'EC', crv: 'P-384', size: 48 },
  ecdsa_secp521r1_sha512: { kty: 'EC', crv: 'P-521', size: 66 },
};

function keyOf(scheme: SignatureScheme, jwk: unknown): RemovalKey | string {
  const { kty, crv, size } = CURVES[scheme];
  if (jwk === null || typeof jwk !== 'object') return `${scheme}: not a JWK`;
  const j = jwk as Record<string, unknown>;
  if (j.kty !== kty || j.crv !== crv) return `${scheme}: a ${String(j.crv ?? j.kty)} key`;
  const field = (name: string) => (typeof j[name] === 'string' ? fromBase64url(j[name]) : undefined);
  const [d, x, y] = [field('d'), field('x'), kty === 'EC' ? field('y') : new Uint8Array()];
  if (d?.length !== size || x?.length !== size || (kty === 'EC' && y?.length !== size))
    return `${scheme}: not a private key of ${crv}`;
  const publicJwk: Record<string, string> = { kty, crv, x: j.x as string };
  if (kty === 'EC') publicJwk.y = j.y as string;
  const publicRaw = kty === 'EC' ? Uint8Array.of(4, ...x, ...y!) : x;
  return { signKey: d, publicRaw, publicJwk };
}

/** Another backend's public removal key from its raw bytes; undefined for bytes that are not one. */
export function publicKeyOfRaw(scheme: SignatureScheme, raw: Uint8Array): RemovalPublicKey | undefined {
  const { kty, crv, size } = CURVES[scheme];
  if (kty === 'OKP')
    return raw.length === size ? { publicRaw: raw, publicJwk: { kty, crv, x: toBase64url(raw) } } : undefined;
  if (raw.length !== 1 + 2 * size || raw[0] !== 4) return undefined;
  const [x, y] = [raw.slice(1, 1 + size), raw.slice(1 + size)];
  return { publicRaw: raw, publicJwk: { kty, crv, x: toBase64url(x), y: toBase64url(y) } };
}

let parsed: { secret: string; result: RemovalKeys | string } | undefined;

/**
 * The removal keys of the MLS_REMOVAL_KEYS secret (signature scheme → private JWK), parsed once
 * per isolate; a text saying what is wrong when a scheme's key is missing or malformed.
 */
export function removalKeys(secret: string | undefined): RemovalKeys | string {
  if (secret === undefined || secret === '') return 'the MLS_REMOVAL_KEYS secret is missing';
  if (parsed?.secret === secret) return parsed.result;
  let result: RemovalKeys | string;
  try {
    const jwks = JSON.parse(secret) as Record<string, unknown>;
    const keys: Partial<RemovalKeys> = {};
    result = '';
    for (const scheme of SIGNATURE_SCHEMES) {
      const key = keyOf(scheme, jwks[scheme]);
      if (typeof key === 'string') {
        result = `MLS_REMOVAL_KEYS: ${key}`;
        break;
      }
      keys[scheme] = key;
    }
    if (result === '') result = keys as RemovalKeys;
  } catch {
    result = 'MLS_REMOVAL_KEYS is not JSON';
  }
  parsed = { secret, result };
  return result;
}
