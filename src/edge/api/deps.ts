import type { Config } from '../../shared/config/index.js';
import type { Db } from '../db/client.js';
import type { SsoAccess } from './access/sso-access.js';
import type { UserAccess } from './access/user-access.js';

/**
 * What a request's work needs, made once by the runtime: this backend's domain, its bindings and
 * stores, and the other components behind their access interfaces. Handlers take it from the
 * context with `deps(c)`; jobs and RPCs are handed the same object.
 */
export interface Deps {
  readonly config: Config;
  readonly env: Env;
  readonly db: Db;
  /** This backend's domain (brig's `setFederationDomain`). */
  readonly domain: string;
  /** brig: users, their clients and connections. */
  readonly users: UserAccess;
  /** spar: single sign-on. */
  readonly sso: SsoAccess;
}

/** The dependencies of the request a handler serves (from its Hono context, which build-app.ts fills). */
export const deps = (c: { get(key: 'deps'): Deps }): Deps => c.get('deps');
