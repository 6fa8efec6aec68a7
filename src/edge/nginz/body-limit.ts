export type LimitedBody = Request | 'too-large' | 'malformed';

async function readUpTo(stream: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array | undefined> {
  const reader = stream.getReader();
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
  return body;
}

function decodedRequest(req: Request, body: BodyInit): Request {
  const out = new Request(req, { body });
  out.headers.delete('content-encoding');
  out.headers.delete('content-length');
  return out;
}

/**
 * Enforces the ingress payload limit and undoes `Content-Encoding: gzip` (the official clients
 * compress JSON bodies). A plain body's declared Content-Length is judged before reading; other
 * bodies are read up to the limit, counting decompressed bytes, and handed on buffered.
 */
export async function limitBody(req: Request, limit: number): Promise<LimitedBody> {
  if (req.body === null) return req;
  const gzip = req.headers.get('content-encoding')?.trim().toLowerCase() === 'gzip';
  if (!gzip) {
    if (!Number.isFinite(limit)) return req;
    const declared = req.headers.get('content-length');
    if (declared !== null) return Number(declared) > limit ? 'too-large' : req;
  }
  const stream = gzip ? req.body.pipeThrough(new DecompressionStream('gzip')) : req.body;
  if (!Number.isFinite(limit)) return decodedRequest(req, stream);
  try {
    const body = await readUpTo(stream, limit);
    if (body === undefined) return 'too-large';
    return gzip ? decodedRequest(req, body) : new Request(req, { body });
  } catch {
    return 'malformed';
  }
}
