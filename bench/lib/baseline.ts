import { Miniflare } from 'miniflare';

// The bare Durable Object broadcast the fan-out is measured against: one object holding every
// socket (hibernation API, as ours), each POSTed body sent as it is to all of them. Nothing is
// authenticated, decoded, targeted or stored.
const script = `
import { DurableObject } from 'cloudflare:workers';
export class Room extends DurableObject {
  async fetch(req) {
    if (req.headers.get('upgrade') === 'websocket') {
      const pair = new WebSocketPair();
      this.ctx.acceptWebSocket(pair[1]);
      return new Response(null, { status: 101, webSocket: pair[0] });
    }
    const body = await req.arrayBuffer();
    for (const ws of this.ctx.getWebSockets()) ws.send(body);
    return new Response(null, { status: 201 });
  }
}
export default { fetch: (req, env) => env.ROOM.get(env.ROOM.idFromName('room')).fetch(req) };
`;

export async function baselineServer(): Promise<{ url: URL; dispose(): Promise<void> }> {
  const mf = new Miniflare({
    modules: true,
    script,
    compatibilityDate: '2026-04-20',
    durableObjects: { ROOM: { className: 'Room', useSQLite: true } },
    host: '127.0.0.1',
    port: 0,
    cf: false,
  });
  // Through miniflare's entry worker, as our public ingress: the same path for both.
  const url = await mf.ready;
  return { url, dispose: () => mf.dispose() };
}

/**
 * The cheapest requests a worker can answer, on the same runtime and entry path as the backend:
 * `/` says hello; `/d1-read` reads one row by primary key from D1 (the floor of any request that
 * reads the database once).
 */
export async function helloWorldServer(stateDir: string): Promise<{ url: URL; dispose(): Promise<void> }> {
  const mf = new Miniflare({
    modules: true,
    script: `export default {
  async fetch(req, env) {
    const path = new URL(req.url).pathname;
    if (path === '/') return new Response('hello');
    if (path === '/setup') {
      await env.DB.exec('CREATE TABLE IF NOT EXISTS users (id TEXT PRIMARY KEY, name TEXT, email TEXT, handle TEXT, locale TEXT)');
      await env.DB.prepare("INSERT OR REPLACE INTO users VALUES ('u1', 'Name', 'a@example.com', 'handle', 'en')").run();
      return new Response('ok');
    }
    return Response.json(await env.DB.prepare('SELECT * FROM users WHERE id = ?').bind('u1').first());
  },
};`,
    compatibilityDate: '2026-04-20',
    d1Databases: { DB: 'baseline' },
    d1Persist: stateDir,
    host: '127.0.0.1',
    port: 0,
    cf: false,
  });
  const url = await mf.ready;
  await (await fetch(new URL('/setup', url))).arrayBuffer();
  return { url, dispose: () => mf.dispose() };
}
