// How a federator on another host reaches the worker's internal ingress (README, "Deploying").
// federator.yaml's `workerInternal` names a host of the edge worker; once the worker's secret
// FEDERATOR_INTERNAL_TOKEN is set too, requests to that host are the federator's: with the token as
// their bearer, its calls (remotes' RPCs, the allow list) reach the internal ingress, and nothing
// else is served there. Without either setting every host gets the public ingress, as before.
import { ApiError } from '../api/errors/api-error.js';
import { commonErrors } from '../api/errors/common.js';
import { federationErrors } from '../api/errors/federation.js';
import { errorResponse } from '../api/errors/render.js';
import type { Runtime } from '../api/runtime.js';

type Ingress = (req: Request, env: Env, ctx: ExecutionContext, rt: Runtime, requestId: string) => Promise<Response>;

const encoder = new TextEncoder();
const digest = (s: string) => crypto.subtle.digest('SHA-256', encoder.encode(s));

/** Whether the bearer is the token: digests compared in constant time, so neither time nor length tells. */
async function carriesToken(req: Request, token: string): Promise<boolean> {
  const header = req.headers.get('authorization') ?? '';
  const given = header.startsWith('Bearer ') ? header.slice('Bearer '.length) : '';
  const [a, b] = await Promise.all([digest(given), digest(token)]);
  return crypto.subtle.timingSafeEqual(a, b) && given !== '';
}

/** What the federator calls: the federation API, for remotes, and brig's allow list. */
const federatorCall = (method: string, path: string) =>
  (method === 'POST' && path.startsWith('/federation/')) || (method === 'GET' && path === '/i/federation/remotes');

/** The public ingress, and the federator's door on `workerInternal`'s host when the token is set. */
export function withFederatorDoor(publicIngress: Ingress, internalIngress: Ingress): Ingress {
  return async (req, env, ctx, rt, requestId) => {
    const door = rt.config.federator.workerInternal;
    const token = env.FEDERATOR_INTERNAL_TOKEN;
    const url = new URL(req.url);
    if (door === undefined || !token || url.hostname !== new URL(door).hostname)
      return publicIngress(req, env, ctx, rt, requestId);
    if (!(await carriesToken(req, token))) return errorResponse(new ApiError(federationErrors.federatorTokenRequired));
    if (!federatorCall(req.method, url.pathname)) return errorResponse(new ApiError(commonErrors.noEndpoint));
    const headers = new Headers(req.headers);
    headers.delete('authorization');
    return internalIngress(new Request(req, { headers }), env, ctx, rt, requestId);
  };
}
