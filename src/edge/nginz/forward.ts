/** The header every response carries its request id in (wire's nginz: Request-Id). */
const REQUEST_ID_HEADER = 'request-id';

/** nginx's `$host`: the Host header's name, lower-cased, without the port. */
export function zHostOf(req: Request): string {
  const host = req.headers.get('host') ?? new URL(req.url).host;
  return host.replace(/:\d+$/, '').toLowerCase();
}

/**
 * Adds the request id, a `Date` as nginx sends on every response (workerd sends none), and CORS
 * headers when the origin is allowed, in place when its headers are mutable (the apps' own
 * responses), else on a copy; websocket upgrades pass untouched (their socket must survive).
 */
export function withHeaders(res: Response, requestId: string, cors?: Record<string, string>): Response {
  if (res.status === 101) return res;
  const set = (out: Response) => {
    out.headers.set(REQUEST_ID_HEADER, requestId);
    if (!out.headers.has('date')) out.headers.set('date', new Date().toUTCString());
    if (cors !== undefined) for (const k in cors) out.headers.set(k, cors[k]!);
    return out;
  };
  try {
    return set(res);
  } catch {
    return set(new Response(res.body, res)); // immutable headers (a fetched response)
  }
}
