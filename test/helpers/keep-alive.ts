import { Agent, request } from 'node:http';

export interface KeepAliveReply {
  status: number;
  body: any;
  /** Whether the request went out on a socket an earlier request had used. */
  reusedSocket: boolean;
}

/**
 * An HTTP client holding one keep-alive connection, as a real client library does: each request
 * waits for a free socket, so consecutive requests share the connection while the server keeps it.
 */
export function keepAliveClient(base: string) {
  const url = new URL(base);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const send = (method: string, path: string, body?: Uint8Array | string, headers: Record<string, string> = {}) =>
    new Promise<KeepAliveReply>((resolve, reject) => {
      const req = request({ host: url.hostname, port: url.port, method, path, agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          const json = res.headers['content-type']?.includes('application/json') && text !== '';
          resolve({ status: res.statusCode!, body: json ? JSON.parse(text) : text, reusedSocket: req.reusedSocket });
        });
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(body);
    });
  return { send, close: () => agent.destroy() };
}
