/**
 * Enforces the ingress payload limit. A declared Content-Length is judged before reading;
 * a body without one is read up to the limit and handed on buffered.
 * Returns the request to pass on, or `undefined` when the body is too large.
 */
export async function limitBody(req: Request, limit: number): Promise<Request | undefined> {
  if (!Number.isFinite(limit) || req.body === null) return req;
  const declared = req.headers.get('content-length');
  if (declared !== null) return Number(declared) > limit ? undefined : req;
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const c of chunks) {
    body.set(c, offset);
    offset += c.byteLength;
  }
  return new Request(req, { body });
}
