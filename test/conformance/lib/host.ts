/** Requests as if sent to another name of the backend: the Host header (nginz's Z-Host) is `host`. */
import { request as httpRequest } from 'node:http';
import type { Reply } from '../../helpers/http.js';

export function atHost(
  base: string,
  method: string,
  path: string,
  token: string,
  host: string,
  body?: unknown,
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const headers: Record<string, string> = { host, authorization: `Bearer ${token}` };
    if (data !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(data.length);
    }
    const req = httpRequest(new URL(path, base), { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        const h = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') h.set(k, v);
        const json = res.headers['content-type']?.includes('application/json') && text !== '';
        resolve({ status: res.statusCode ?? 0, headers: h, body: json ? JSON.parse(text) : text, text });
      });
    });
    req.on('error', reject);
    req.end(data);
  });
}
