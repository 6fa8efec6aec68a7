/** nginx's `$host`: the Host header's name, lower-cased, without the port. */
export function zHostOf(req: Request): string {
  const host = req.headers.get('host') ?? new URL(req.url).host;
  return host.replace(/:\d+$/, '').toLowerCase();
}

/**
 * Adds headers to a response, in place when its headers are mutable (the apps' own responses),
 * else on a copy; websocket upgrades pass untouched (their socket must survive).
 */
export function withHeaders(res: Response, headers: Record<string, string>): Response {
  if (res.status === 101) return res;
  let out = res;
  try {
    for (const [k, v] of Object.entries(headers)) out.headers.set(k, v);
  } catch {
    out = new Response(res.body, res); // immutable headers (a fetched response)
    for (const [k, v] of Object.entries(headers)) out.headers.set(k, v);
  }
  return out;
}
