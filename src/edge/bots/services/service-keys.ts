import { pinnableKey } from '../../../shared/integrations/fingerprint.js';
import { base64url } from '../../../shared/keys.js';
import { ApiError } from '../../api/errors/api-error.js';
import { providerErrors } from '../../api/errors/provider.js';
import type { ServiceKeyRow } from '../../../shared/db/schema-providers.js';

/** A service's key as wire takes it: an RSA public key of at least 2048 bits in PEM (400 `invalid-service-key`). */
export async function serviceKey(pem: string): Promise<ServiceKeyRow> {
  const key = await pinnableKey(pem);
  if (key === undefined) throw new ApiError(providerErrors.invalidServiceKey);
  return { pem, ...key };
}

/** A random bearer token for a service that named none (18 bytes, base64url). */
export function newAuthToken(): string {
  return base64url(crypto.getRandomValues(new Uint8Array(18)));
}
