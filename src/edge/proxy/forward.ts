import type { Context } from 'hono';
import type { AppEnv } from '../api/app-env.js';
import { ApiError } from '../api/errors/api-error.js';
import { proxyErrors } from '../api/errors/proxy.js';

/** Hop-by-hop and encoding headers: the runtime sets its own for the body it passes on. */
const NOT_PASSED_ON = ['content-length', 'transfer-encoding', 'content-encoding', 'connection', 'keep-alive'];

/**
 * Calls the third party; an unreachable one is 502 `bad-gateway`, and a 502 is asked again up to
 * twice (as wire's proxy does). Redirects are the client's to follow, not ours.
 */
export async function callUpstream(url: URL, init: RequestInit = {}, retries = 2): Promise<Response> {
  for (let attempt = 0; ; attempt++) {
    let res: Response;
    try {
      res = await fetch(url, { ...init, redirect: 'manual' });
    } catch {
      if (attempt < retries) continue;
      throw new ApiError(proxyErrors.badGateway);
    }
    if (res.status !== 502 || attempt >= retries) return res;
    await res.body?.cancel();
  }
}

/** The upstream's answer as it is: status, headers and streamed body. */
export function passOn(res: Response): Response {
  const headers = new Headers(res.headers);
  for (const h of NOT_PASSED_ON) headers.delete(h);
  return new Response(res.body, { status: res.status, headers });
}

/** The upstream's status and body, with its content type only. */
export function passOnBody(res: Response): Response {
  const type = res.headers.get('content-type');
  return new Response(res.body, { status: res.status, headers: type === null ? {} : { 'content-type': type } });
}

/** The client's query without its `access_token` (that is ours, not the third party's), after the secret. */
export function upstreamQuery(c: Context<AppEnv>, secretParam: string, secret: string): string {
  const query = new URLSearchParams([[secretParam, secret]]);
  for (const [k, v] of new URL(c.req.url).searchParams) if (k.toLowerCase() !== 'access_token') query.append(k, v);
  return query.toString();
}
