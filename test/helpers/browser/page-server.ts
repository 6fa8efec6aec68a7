import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { REST_URL, WEBSOCKET_URL } from '../../browser-page/hosts.js';

/**
 * The web app's kind of Content-Security-Policy: its own scripts (and WASM compilation, for
 * core-crypto), the API and websocket hosts, and asset downloads from the local object store
 * (`https://localhost:<port>`, where the backend's redirects point locally).
 */
const PAGE_CSP = [
  "default-src 'self'",
  `connect-src 'self' ${REST_URL} ${WEBSOCKET_URL} https://localhost:*`,
  "img-src 'self' blob: data:",
  "script-src 'self' 'wasm-unsafe-eval'",
  'upgrade-insecure-requests',
].join('; ');

const TYPES: Record<string, string> = {
  '/index.html': 'text/html; charset=utf-8',
  '/app.js': 'text/javascript; charset=utf-8',
  '/app.js.map': 'application/json',
  '/core-crypto.wasm': 'application/wasm',
};

export interface PageServer {
  port: number;
  close(): Promise<void>;
}

/** Serves the bundled page (`bundlePage`'s folder) over https on a free loopback port. */
export async function servePage(dir: string, tls: { certPath: string; keyPath: string }): Promise<PageServer> {
  const [cert, key] = await Promise.all([readFile(tls.certPath), readFile(tls.keyPath)]);
  const server: Server = createServer({ cert, key }, (req, res) => {
    const path = new URL(req.url ?? '/', 'https://page').pathname;
    const file = path === '/' ? '/index.html' : path;
    const type = TYPES[file];
    if (req.method !== 'GET' || type === undefined) {
      res.writeHead(404).end();
      return;
    }
    readFile(join(dir, file)).then(
      (body) => {
        const headers: Record<string, string> = { 'content-type': type, 'cache-control': 'no-store' };
        if (file === '/index.html') headers['content-security-policy'] = PAGE_CSP;
        res.writeHead(200, headers).end(body);
      },
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
