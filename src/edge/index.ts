import { WorkerEntrypoint } from 'cloudflare:workers';
import { ApiError } from './api/errors/api-error.js';
import { commonErrors } from './api/errors/common.js';
import { errorResponse } from './api/errors/render.js';
import type { Env } from './env.js';
import { serveInternal, servePublic } from './nginz/gateway.js';
import { runtimeFor } from './runtime.js';
import { runScheduledJobs } from './scheduled.js';

export { RateLimiter } from '../objects/RateLimiter.js';
export { NotificationShard } from '../objects/NotificationShard.js';
export { Conversation } from '../objects/Conversation.js';

type Ingress = typeof servePublic;

function serve(ingress: Ingress, req: Request, env: Env, ctx: ExecutionContext): Promise<Response> | Response {
  const result = runtimeFor(env);
  if (!result.ok) {
    // Name the offending keys, not their values: the log line has the full reasons.
    const where = result.problems.map((p) => (p.path ? `${p.file} ${p.path}` : p.file)).join('; ');
    return errorResponse(new ApiError(commonErrors.invalidConfiguration, `Invalid configuration: ${where}`));
  }
  return ingress(req, env, ctx, result.runtime);
}

/** The public ingress (nginz), and the scheduled jobs of wrangler.toml's `[triggers]`. */
export default {
  fetch: (req, env, ctx) => serve(servePublic, req, env, ctx),
  scheduled: async (_controller, env) => {
    const result = runtimeFor(env);
    if (result.ok) await runScheduledJobs(env, result.runtime.config);
  },
} satisfies ExportedHandler<Env>;

/**
 * The internal ingress: `/i/...` routes. On Cloudflare it is reachable only through service
 * bindings (`entrypoint = "InternalApi"`); locally `npm start` exposes it on INTERNAL_PORT.
 */
export class InternalApi extends WorkerEntrypoint<Env> {
  override fetch(req: Request): Promise<Response> | Response {
    return serve(serveInternal, req, this.env, this.ctx);
  }
}
