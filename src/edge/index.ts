import { WorkerEntrypoint } from 'cloudflare:workers';
import { ApiError } from './api/errors/api-error.js';
import { commonErrors } from './api/errors/common.js';
import { errorResponse } from './api/errors/render.js';
import type { Problem } from '../shared/config/index.js';
import { DEFAULT_INGRESS_LIMIT } from '../shared/config/schemas/nginz.js';
import { withFederatorDoor } from './federation/federator-door.js';
import { drainable, drainLimit, newRequestId, serveInternal, servePublic } from './nginz/face.js';
import { withRequestId } from '../shared/log.js';
import { withCountingDb, withQueryCount } from './db/query-count.js';
import { withCountingObjects } from './metrics/object-call-count.js';
import { runtimeFor } from './runtime.js';
import { runQueuedWork, runScheduledJobs } from './scheduled.js';

type Ingress = typeof servePublic;

const publicIngress = withFederatorDoor(servePublic, serveInternal);

function serve(ingress: Ingress, req: Request, bindings: Env, ctx: ExecutionContext): Promise<Response> {
  const requestId = newRequestId();
  const env = withCountingObjects(withCountingDb(bindings));
  return withRequestId(requestId, () =>
    withQueryCount(async () => {
      const result = runtimeFor(env);
      // Whatever the route left unread is discarded here, so the connection stays usable.
      const body = drainable(req);
      const res = result.ok
        ? await ingress(body.req, env, ctx, result.runtime, requestId)
        : invalidConfiguration(result.problems);
      await body.drain(result.ok ? drainLimit(result.runtime.config) : DEFAULT_INGRESS_LIMIT);
      return res;
    }),
  );
}

function invalidConfiguration(problems: readonly Problem[]): Response {
  // Name the offending keys, not their values: the log line has the full reasons.
  const where = problems.map((p) => (p.path ? `${p.file} ${p.path}` : p.file)).join('; ');
  return errorResponse(new ApiError(commonErrors.invalidConfiguration, `Invalid configuration: ${where}`));
}

/**
 * The public ingress (nginz; a federator on another host has a door of its own, see
 * federation/federator-door.ts), the scheduled jobs of wrangler.toml's `[triggers]` and its queue
 * consumers.
 */
export default {
  fetch: (req, env, ctx) => serve(publicIngress, req, env, ctx),
  scheduled: (controller, env) =>
    withRequestId(newRequestId(), async () => {
      const result = runtimeFor(env);
      if (result.ok) await runScheduledJobs(result.runtime.deps(env), controller.cron);
    }),
  queue: (batch, env) =>
    withRequestId(newRequestId(), async () => {
      const result = runtimeFor(env);
      if (!result.ok) throw new Error('invalid configuration: queued work waits');
      await runQueuedWork(batch, result.runtime.deps(env));
    }),
} satisfies ExportedHandler<Env>;

/**
 * The internal ingress: `/i/...` routes. On Cloudflare it is reachable only through service
 * bindings (`entrypoint = "InternalApi"`); locally `npm start` exposes it on INTERNAL_PORT.
 */
export class InternalApi extends WorkerEntrypoint<Env> {
  override fetch(req: Request): Promise<Response> {
    return serve(serveInternal, req, this.env, this.ctx);
  }
}
