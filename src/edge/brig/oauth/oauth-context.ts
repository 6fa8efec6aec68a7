import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { fromConfigFile } from '../../api/config-files.js';
import { ApiError } from '../../api/errors/api-error.js';
import { oauthErrors } from '../../api/errors/oauth.js';
import { OAUTH_SCOPES, oauthSigningKeyOf, oauthVerifyingKeyOf } from '../../auth/oauth-tokens.js';
import { database, type Db } from '../../db/client.js';
import { oauthStore, type OAuthClientRow } from './oauth-store.js';

/** brig's OAuth settings; 403 `forbidden` while OAuth is off. */
export function oauthSettings(c: Context<AppEnv>) {
  const o = c.get('config').brig.optSettings;
  if (!o.setOAuthEnabled) throw new ApiError(oauthErrors.disabled);
  return {
    codeTtlSeconds: o.setOAuthAuthorizationCodeExpirationTimeSecs ?? o.setOAuthAuthCodeExpirationTimeSecs ?? 300,
    accessTtlSeconds: o.setOAuthAccessTokenExpirationTimeSecs,
    refreshTtlSeconds: o.setOAuthRefreshTokenExpirationTimeSecs,
    maxRefreshTokens: o.setOAuthMaxActiveRefreshTokens,
  };
}

/** The key pair signing OAuth tokens, as a signing or a verifying key (500 `jwt-error` when it cannot be had). */
export async function oauthSigningKey(c: Context<AppEnv>, use: 'sign' | 'verify' = 'sign'): Promise<CryptoKey> {
  const path = c.get('config').brig.optSettings.setOAuthJwkKeyPair;
  try {
    return await fromConfigFile(c.env, path ?? '', use === 'sign' ? oauthSigningKeyOf : oauthVerifyingKeyOf);
  } catch {
    throw new ApiError(oauthErrors.jwtError);
  }
}

/** A registered application (404 `not-found` otherwise), with OAuth on. */
export async function oauthClient(c: Context<AppEnv>, id: string): Promise<{ db: Db; client: OAuthClientRow }> {
  oauthSettings(c);
  const db = database(c.env.DB);
  const client = await oauthStore.client(db, id);
  if (client === undefined) throw new ApiError(oauthErrors.clientNotFound);
  return { db, client };
}

/**
 * The scopes asked for, in wire's order and spelling; one unknown scope makes the whole request
 * ask for none (wire's reading, which grants nothing rather than refusing).
 */
export function grantedScope(requested: string): string {
  const words = requested
    .split(' ')
    .filter((w) => w !== '')
    .map((w) => w.toLowerCase());
  if (!words.every((w) => (OAUTH_SCOPES as readonly string[]).includes(w))) return '';
  return OAUTH_SCOPES.filter((s) => words.includes(s)).join(' ');
}
