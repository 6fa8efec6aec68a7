import { modulusBytes, rsaFingerprint, rsaKeyOfSpki, spkiOfPem } from '../../../shared/integrations/fingerprint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { providerErrors } from '../../api/errors/provider.js';
import type { ServiceKeyRow } from '../../db/schema-providers.js';

/** A service's key as wire takes it: an RSA public key of at least 2048 bits in PEM (400 `invalid-service-key`). */
export async function serviceKey(pem: string): Promise<ServiceKeyRow> {
  const spki = spkiOfPem(pem);
  const key = spki === undefined ? undefined : await rsaKeyOfSpki(spki);
  if (key === undefined || modulusBytes(key) < 256) throw new ApiError(providerErrors.invalidServiceKey);
  return { pem, size: modulusBytes(key) * 8, fingerprint: await rsaFingerprint(key) };
}

/** A random bearer token for a service that named none (18 bytes, base64url). */
export function newAuthToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(18));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_');
}
