import type { OpenAPIHono } from '@hono/zod-openapi';
import type { ApiVersion } from '../../shared/api-version.js';
import type { Config } from '../../shared/config/index.js';
import type { AppEnv } from './app-env.js';
import type { Deps } from './deps.js';

/** Everything derived once per isolate from the configuration. */
export interface Runtime {
  config: Config;
  /** The dependencies of a request or job with these bindings. */
  deps: (env: Env) => Deps;
  /** The versions `disabledAPIVersions` leaves on. */
  enabled: ReadonlySet<ApiVersion>;
  versionApp: (v: ApiVersion) => OpenAPIHono<AppEnv>;
  internalApp: OpenAPIHono<AppEnv>;
  /** The back office (stern): the root of the internal listener, behind basic auth. */
  sternApp: OpenAPIHono<AppEnv>;
}
