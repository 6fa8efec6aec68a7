/**
 * SHA-256 and HMAC-SHA-256 for the S3 client's request signing, always through WebCrypto. The
 * SDK's own browser hasher falls back to a JavaScript implementation above 8 MiB of input, which
 * made signing a multipart part cost more than uploading it.
 */
export class WebCryptoSha256 {
  private chunks: Uint8Array[] = [];
  private readonly secret: Uint8Array | undefined;

  constructor(secret?: string | ArrayBuffer | ArrayBufferView) {
    this.secret = secret === undefined ? undefined : bytesOf(secret);
  }

  update(data: Uint8Array | string): void {
    this.chunks.push(bytesOf(data));
  }

  async digest(): Promise<Uint8Array> {
    const data = this.chunks.length === 1 ? this.chunks[0]! : concat(this.chunks);
    if (this.secret === undefined) return new Uint8Array(await crypto.subtle.digest('SHA-256', data));
    const key = await crypto.subtle.importKey('raw', this.secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    return new Uint8Array(await crypto.subtle.sign('HMAC', key, data));
  }

  reset(): void {
    this.chunks = [];
  }
}

function bytesOf(data: string | ArrayBuffer | ArrayBufferView): Uint8Array {
  if (typeof data === 'string') return new TextEncoder().encode(data);
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  return new Uint8Array(data);
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  return out;
}
