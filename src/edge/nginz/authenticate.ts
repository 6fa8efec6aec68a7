import type { ZauthKeys } from '../auth/keys.js';
import { accessTokenOf } from '../auth/request-token.js';
import {
  type AccessClaims,
  type BotClaims,
  verifyAccessToken,
  verifyBotToken,
  verifyProviderToken,
} from '../auth/tokens.js';

/** The provider cookie a service provider's login sets (nginz reads the token from it too). */
const PROVIDER_COOKIE = /(?:^|;\s*)zprovider=([^;]+)/;

/** Who a request's token names: a user, a service provider, a bot, or nobody (no token, a bad or expired one). */
export async function authenticate(
  req: Request,
  url: URL,
  keys: ZauthKeys,
): Promise<{ user?: AccessClaims; provider?: string; bot?: BotClaims }> {
  const token = accessTokenOf(req, url);
  const user = token === undefined ? undefined : await verifyAccessToken(keys, token);
  if (user !== undefined) return { user };
  const bot = token === undefined ? undefined : await verifyBotToken(keys, token);
  if (bot !== undefined) return { bot };
  const providerToken = token ?? PROVIDER_COOKIE.exec(req.headers.get('cookie') ?? '')?.[1];
  const provider = providerToken === undefined ? undefined : await verifyProviderToken(keys, providerToken);
  return provider === undefined ? {} : { provider };
}
