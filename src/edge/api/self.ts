import type { Context } from 'hono';
import type { AccessClaims, BotClaims } from '../auth/tokens.js';
import type { AppEnv } from './app-env.js';
import { ApiError } from './errors/api-error.js';
import { commonErrors } from './errors/common.js';
import type { QualifiedId } from './schemas/common.js';
import { deps } from './deps.js';

/** The authenticated caller of a route declared with `auth: 'user'` (the default for public routes). */
export function self(c: Context<AppEnv>): AccessClaims {
  const claims = c.get('self');
  if (claims === undefined) throw new ApiError(commonErrors.unauthorized);
  return claims;
}

/** The caller as a qualified id: their user id on this backend's domain. */
export const selfQualified = (c: Context<AppEnv>): QualifiedId => ({
  id: self(c).user,
  domain: deps(c).domain,
});

/** The authenticated provider of a route declared with `auth: 'provider'`. */
export function provider(c: Context<AppEnv>): string {
  const id = c.get('provider');
  if (id === undefined) throw new ApiError(commonErrors.unauthorized);
  return id;
}

/** The authenticated bot of a route declared with `auth: 'bot'`. */
export function bot(c: Context<AppEnv>): BotClaims {
  const claims = c.get('bot');
  if (claims === undefined) throw new ApiError(commonErrors.unauthorized);
  return claims;
}
