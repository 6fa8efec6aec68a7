/** Headers only the edge may set; a client's own values are dropped. */
const EDGE_HEADERS = ['z-host', 'z-user', 'z-client', 'z-connection', 'z-type', 'request-id'];

/** nginx's `$host`: the Host header's name, lower-cased, without the port. */
export function zHostOf(req: Request): string {
  const host = req.headers.get('host') ?? new URL(req.url).host;
  return host.replace(/:\d+$/, '').toLowerCase();
}

/** The request as a component sees it: path without the version prefix, edge headers set. */
export function forwardRequest(req: Request, path: string, edge: Record<string, string>): Request {
  const url = new URL(req.url);
  url.pathname = path;
  const out = new Request(url, req);
  for (const h of EDGE_HEADERS) out.headers.delete(h);
  for (const [k, v] of Object.entries(edge)) out.headers.set(k, v);
  return out;
}

/** Adds headers to a response; websocket upgrades pass untouched (their socket must survive). */
export function withHeaders(res: Response, headers: Record<string, string>): Response {
  if (res.status === 101) return res;
  const out = new Response(res.body, res);
  for (const [k, v] of Object.entries(headers)) out.headers.set(k, v);
  return out;
}
