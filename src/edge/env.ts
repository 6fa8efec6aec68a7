import type { RateLimiter } from '../objects/RateLimiter.js';

/** Bindings of the edge worker, as declared in wrangler.toml. */
export interface Env {
  /** JSON object: component file name → YAML text (see tools/lib/config-dir.ts). */
  SVC_CONFIG: string;
  DB: D1Database;
  RATE_LIMITER: DurableObjectNamespace<RateLimiter>;
}
