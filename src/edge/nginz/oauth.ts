import type { Config } from '../../shared/config/index.js';
import type { NginzLocation } from '../../shared/config/schemas/nginz.js';
import { fromConfigFile } from '../api/config-files.js';
import { looksLikeOAuthToken, oauthVerifyingKeyOf, verifyOAuthAccessToken } from '../auth/oauth-tokens.js';
import { newConnectionId, type AccessClaims } from '../auth/tokens.js';

/** The scope prefixes that allow a method: reading with any, writing with write or admin, deleting with admin. */
const PREFIXES: Record<string, readonly string[]> = {
  GET: ['read', 'write', 'admin'],
  POST: ['write', 'admin'],
  PUT: ['write', 'admin'],
  DELETE: ['admin'],
};

/**
 * nginz's OAuth path, taken when a request's bearer token is no zauth token: at a location with an
 * `oauth_scope`, a valid OAuth access token whose scopes allow the method stands for its user
 * (and nothing more: no client, a fresh connection id). `insufficient-scope` when the scopes do
 * not allow it (403); undefined anywhere else, or for a bad or expired token (401 where a user is needed).
 */
export async function oauthCaller(
  req: Request,
  env: Env,
  config: Config,
  location: NginzLocation | undefined,
): Promise<AccessClaims | 'insufficient-scope' | undefined> {
  const scope = location?.oauth_scope;
  const keyPath = config.nginz.nginx_conf.oauth_pub_key;
  if (scope === undefined || keyPath === undefined) return undefined;
  const token = /^Bearer\s+(\S+)$/i.exec(req.headers.get('authorization')?.trim() ?? '')?.[1];
  if (token === undefined || !looksLikeOAuthToken(token)) return undefined;
  const claims = await verifyOAuthAccessToken(await fromConfigFile(env, keyPath, oauthVerifyingKeyOf), token);
  if (claims === undefined) return undefined;
  const allowed = (PREFIXES[req.method] ?? []).some((p) => claims.scopes.includes(`${p}:${scope}`));
  return allowed ? { user: claims.user, connection: newConnectionId() } : 'insufficient-scope';
}
