import type { ServiceConnection } from '../../api/access/user-access.js';
import type { ServiceRow } from './provider-store.js';

export const connectionOf = (s: ServiceRow): ServiceConnection => ({
  baseUrl: s.baseUrl,
  authToken: s.authTokens[0] ?? '',
  fingerprints: s.publicKeys.map((k) => k.fingerprint),
  enabled: s.enabled,
});
