import type { ServiceRow } from '../providers/provider-store.js';

/** Where a service takes its bots' calls: its URL, first token, key fingerprints, whether enabled. */
export interface ServiceConnection {
  baseUrl: string;
  authToken: string;
  fingerprints: string[];
  enabled: boolean;
}

export const connectionOf = (s: ServiceRow): ServiceConnection => ({
  baseUrl: s.baseUrl,
  authToken: s.authTokens[0] ?? '',
  fingerprints: s.publicKeys.map((k) => k.fingerprint),
  enabled: s.enabled,
});
