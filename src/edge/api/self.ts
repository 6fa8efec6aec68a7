import type { Context } from 'hono';
import type { AccessClaims } from '../auth/tokens.js';
import type { AppEnv } from './app-env.js';
import { ApiError } from './errors/api-error.js';
import { commonErrors } from './errors/common.js';

/** The authenticated caller of a route declared with `auth: 'user'` (the default for public routes). */
export function self(c: Context<AppEnv>): AccessClaims {
  const claims = c.get('self');
  if (claims === undefined) throw new ApiError(commonErrors.unauthorized);
  return claims;
}
