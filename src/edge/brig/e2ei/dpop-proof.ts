import { compactVerify, decodeProtectedHeader, importJWK, type JWK, type ProtectedHeaderParameters } from 'jose';
import { ApiError } from '../../api/errors/api-error.js';
import { e2eiErrors } from '../../api/errors/e2ei.js';
import { isUrl } from '../../../shared/url.js';

/** What the proof must say: who the client is, which nonce it answers, where and how it is sent. */
export interface ExpectedProof {
  /** `wireapp://<user id, base64url>!<client hex>@<domain>` */
  clientUri: string;
  nonce: string;
  htu: string;
  /** `wireapp://%40<handle>@<domain>` */
  handleUri: string;
  team: string;
  name: string;
  nowSeconds: number;
  skewSeconds: number;
  /** The latest `exp` a proof may have (the access token it asks for expires then). */
  maxExp: number;
}

/** The checked proof: its key (bound into the access token) and its claims. */
export interface DpopProof {
  jwk: JWK;
  claims: Record<string, unknown>;
}

const ALGS = ['ES256', 'ES384', 'ES512', 'EdDSA'];

function fail(spec: (typeof e2eiErrors)[keyof typeof e2eiErrors]): never {
  throw new ApiError(spec);
}

async function verifiedPayload(proof: string): Promise<{ jwk: JWK; payload: Uint8Array }> {
  let header: ProtectedHeaderParameters;
  try {
    header = decodeProtectedHeader(proof);
  } catch {
    fail(e2eiErrors.malformedProof);
  }
  if (header.typ === undefined || header.jwk === undefined) fail(e2eiErrors.missingProof);
  if (header.typ !== 'dpop+jwt') fail(e2eiErrors.badType);
  if (header.alg === undefined || !ALGS.includes(header.alg)) fail(e2eiErrors.unsupportedAlg);
  const jwk = header.jwk;
  let key: CryptoKey | Uint8Array;
  try {
    if ('d' in jwk) throw new Error('a private key');
    key = await importJWK(jwk, header.alg);
  } catch {
    fail(e2eiErrors.badJwk);
  }
  try {
    const { payload } = await compactVerify(proof, key, { algorithms: [header.alg] });
    return { jwk, payload };
  } catch {
    fail(e2eiErrors.badSignature);
  }
}

/**
 * Checks a client's DPoP proof (RFC 9449) as wire's jwt-tools does before an access token is
 * issued: `typ` dpop+jwt, an allowed `alg`, signed by its `jwk`; the claims naming this client,
 * the backend's nonce, this endpoint (`htm` POST, `htu`), the user's handle, team and display name,
 * an ACME challenge (`chal`) and an audience, within the time window.
 */
export async function verifyDpopProof(proof: string, x: ExpectedProof): Promise<DpopProof> {
  const { jwk, payload } = await verifiedPayload(proof);
  let claims: Record<string, unknown>;
  try {
    claims = JSON.parse(new TextDecoder().decode(payload)) as Record<string, unknown>;
  } catch {
    fail(e2eiErrors.badSignature);
  }
  if (claims === null || typeof claims !== 'object') fail(e2eiErrors.badSignature);
  const { iat, exp, nbf, sub, nonce, htm, htu, handle, name, aud } = claims;
  for (const v of [sub, nonce, nbf, htm, htu, handle, name, aud]) if (v === undefined) fail(e2eiErrors.missingClaim);
  if (typeof iat !== 'number') fail(e2eiErrors.iatMissing);
  if (typeof exp !== 'number') fail(e2eiErrors.expMissing);
  if (iat > x.nowSeconds + x.skewSeconds) fail(e2eiErrors.badIat);
  if (exp > x.maxExp) fail(e2eiErrors.expTooLarge);
  if (exp < x.nowSeconds - x.skewSeconds) fail(e2eiErrors.expTooSmall);
  if (typeof nbf !== 'number' || nbf > x.nowSeconds + x.skewSeconds) fail(e2eiErrors.notYetValid);
  if (sub !== x.clientUri) fail(e2eiErrors.badClientId);
  if (nonce !== x.nonce) fail(e2eiErrors.badNonce);
  if (typeof claims.jti !== 'string') fail(e2eiErrors.jtiMissing);
  if (htm !== 'POST') fail(e2eiErrors.htmMismatch);
  if (htu !== x.htu) fail(e2eiErrors.htuMismatch);
  if (typeof claims.chal !== 'string') fail(e2eiErrors.chalMissing);
  if (typeof aud !== 'string' || !isUrl(aud)) fail(e2eiErrors.missingClaim);
  if (handle !== x.handleUri) fail(e2eiErrors.handleMismatch);
  if (claims.team !== x.team) fail(e2eiErrors.teamMismatch);
  if (name !== x.name) fail(e2eiErrors.displayNameMismatch);
  return { jwk, claims };
}
