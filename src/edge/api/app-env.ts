import type { ApiVersion } from '../../shared/api-version.js';
import type { Config } from '../../shared/config/index.js';
import type { AccessClaims, BotClaims } from '../auth/tokens.js';
import type { Deps } from './deps.js';

/** What every handler sees: bindings, the validated configuration and the request's edge facts. */
export interface AppEnv {
  Bindings: Env;
  Variables: {
    config: Config;
    /** The request's dependencies (`deps(c)`). */
    deps: Deps;
    /** The version the request was routed as; internal routes see `undefined`. */
    apiVersion: ApiVersion | undefined;
    /** Set by the edge from the request's Host header (nginz `Z-Host`). */
    zHost: string;
    requestId: string;
    /** The caller nginz authenticated (Z-User, Z-Client, Z-Connection); absent without a valid token. */
    self: AccessClaims | undefined;
    /** The service provider nginz authenticated (Z-Provider), on `/provider` routes. */
    provider: string | undefined;
    /** The bot nginz authenticated (Z-Bot, Z-Provider, Z-Conversation), on the bot API. */
    bot: BotClaims | undefined;
  };
}
