import { z } from '@hono/zod-openapi';
import { toBase64 } from '../../../shared/base64.js';
import type { RemovalPublicKey } from '../../../shared/mls/removal-keys.js';
import { SIGNATURE_SCHEMES, type SignatureScheme } from '../../../shared/mls/suites.js';
import { endpoint } from '../../api/endpoint.js';
import { mlsErrors } from '../../api/errors/mls.js';
import { json } from '../../api/schemas/common.js';
import { requireMls } from './mls-enabled.js';

const someKey = z.unknown().openapi('SomeKey');
const mlsKeys = z.object(Object.fromEntries(SIGNATURE_SCHEMES.map((s) => [s, someKey]))).openapi('MLSKeys');
/** The backend's public keys by purpose (`MLSKeysByPurpose`): the removal keys, one per signature scheme. */
export const mlsKeysByPurpose = z.object({ removal: mlsKeys }).openapi('MLSKeysByPurpose');

/** The `format` query of the routes answering public keys (from v7): `raw` (the default) or `jwk`. */
export const keyFormatQuery = z.object({ format: z.enum(['raw', 'jwk']).optional() });

type KeyFormat = 'raw' | 'jwk';

/** Removal public keys by signature scheme: this backend's, or the owner's of another backend's 1:1. */
export type PublicKeys = Record<SignatureScheme, RemovalPublicKey>;

/** The removal public keys, as raw base64 (ECDSA points uncompressed) or as JWKs. */
export function publicKeysJson(keys: PublicKeys, format: KeyFormat) {
  const removal = Object.fromEntries(
    SIGNATURE_SCHEMES.map((s) => [s, format === 'jwk' ? keys[s].publicJwk : toBase64(keys[s].publicRaw)]),
  );
  return { removal };
}

/** `GET /mls/public-keys`: the keys the backend signs external proposals with (`format` from v7). */
export const getMlsPublicKeys = endpoint(
  {
    name: 'mls-public-keys',
    method: 'get',
    path: '/mls/public-keys',
    from: 5,
    request: { query: keyFormatQuery },
    errors: [mlsErrors.mlsNotEnabled],
    responses: { 200: { description: 'Public keys', ...json(mlsKeysByPurpose) } },
  },
  (c) => {
    const keys = requireMls(c);
    const v = c.get('apiVersion') ?? 0;
    const format = v >= 7 ? (c.req.valid('query').format ?? 'raw') : 'raw';
    return c.json(publicKeysJson(keys, format), 200);
  },
);
