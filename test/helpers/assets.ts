import { createHash, randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { call, type Reply } from './http.js';

export interface AssetMetadata {
  public?: boolean | null;
  retention?: string | null;
  [key: string]: unknown;
}

/** An upload body as the official clients build it: JSON metadata, then the bytes with their length and MD5. */
export function assetBody(
  data: Uint8Array,
  metadata: AssetMetadata = { public: false, retention: 'persistent' },
  o: { boundary?: string; declaredLength?: number; trailer?: string } = {},
): { body: Uint8Array<ArrayBuffer>; contentType: string } {
  const boundary = o.boundary ?? `Frontier${randomBytes(12).toString('hex')}`;
  const meta = JSON.stringify(metadata);
  const head =
    `--${boundary}\r\n` +
    'Content-Type: application/json;charset=utf-8\r\n' +
    `Content-length: ${Buffer.byteLength(meta)}\r\n\r\n` +
    `${meta}\r\n` +
    `--${boundary}\r\n` +
    'Content-Type: application/octet-stream\r\n' +
    `Content-length: ${o.declaredLength ?? data.byteLength}\r\n` +
    `Content-MD5: ${createHash('md5').update(data).digest('base64')}\r\n\r\n`;
  const trailer = o.trailer ?? `\r\n--${boundary}--\r\n`;
  return {
    body: new Uint8Array(Buffer.concat([Buffer.from(head), data, Buffer.from(trailer)])),
    contentType: `multipart/mixed; boundary=${boundary}`,
  };
}

/** POSTs an asset to `/<version>/assets` (v0/v1: `/assets/v3`). */
export function uploadAsset(
  base: string,
  token: string,
  data: Uint8Array,
  metadata?: AssetMetadata,
  o: { version?: string; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const { body, contentType } = assetBody(data, metadata);
  const version = o.version ?? 'v8';
  const path = version === 'v0' || version === 'v1' ? `/${version}/assets/v3` : `/${version}/assets`;
  return call(base, path, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType, ...o.headers },
    body,
  });
}

/** A download request that does not follow the redirect. */
export function getAsset(
  base: string,
  path: string,
  token: string,
  headers: Record<string, string> = {},
): Promise<Reply> {
  return call(base, path, { headers: { authorization: `Bearer ${token}`, ...headers }, redirect: 'manual' });
}

/** Follows a download's redirect to the object store and returns the bytes. */
export async function fetchRedirect(r: Reply): Promise<{ status: number; bytes: Buffer }> {
  const res = await fetch(r.headers.get('location')!);
  return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) };
}

/** A GET as if sent to another domain: the Host header (so nginz's Z-Host) is `host`. */
export function getAssetAtHost(base: string, path: string, token: string, host: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(new URL(path, base), { headers: { host, authorization: `Bearer ${token}` } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        const headers = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') headers.set(k, v);
        const json = res.headers['content-type']?.includes('application/json') && text !== '';
        resolve({ status: res.statusCode ?? 0, headers, body: json ? JSON.parse(text) : text, text });
      });
    });
    req.on('error', reject);
    req.end();
  });
}
