import { createRequire } from 'node:module';
import type * as Otr from '@wireapp/protocol-messaging/web/otr.js';
import Long from 'long';
import { Agent, request } from 'undici';
import type { SeededUser } from './seed.js';

// The generated module is CommonJS whose exports Node's ESM loader cannot name: require it.
const require = createRequire(import.meta.url);
const { proteus } = require('@wireapp/protocol-messaging/web/otr.js') as typeof Otr;
const protobuf = require('protobufjs/minimal.js') as { util: { Long: unknown }; configure(): void };
protobuf.util.Long = Long;
protobuf.configure();

const index = (i: number) => new Uint8Array(new Uint32Array([i]).buffer);

/** A Proteus message from `sender` to every client of `users`, carrying `i` in its blob (see fan-out-run's indexOf). */
export function otrMessage(sender: SeededUser, users: readonly SeededUser[], i: number, domain: string): Uint8Array {
  const text = new Uint8Array(64);
  return proteus.QualifiedNewOtrMessage.encode(
    proteus.QualifiedNewOtrMessage.create({
      sender: { client: Long.fromString(sender.clients[0]!, true, 16) },
      recipients: [
        {
          domain,
          entries: users
            .filter((u) => u !== sender)
            .map((u) => ({
              user: { uuid: Buffer.from(u.id.replace(/-/g, ''), 'hex') },
              clients: u.clients.map((cl) => ({ client: { client: Long.fromString(cl, true, 16) }, text })),
            })),
        },
      ],
      reportAll: {},
      blob: index(i),
    }),
  ).finish();
}

/**
 * Requests of one phase share a connection pool; each phase gets a fresh one, since a connection
 * left idle between phases (seeding, opening thousands of sockets) may be closed by the server
 * just as a POST is written to it.
 */
let pool = new Agent();

export async function phase<T>(name: string, run: () => Promise<T>): Promise<T> {
  await pool.close();
  pool = new Agent();
  try {
    return await run();
  } catch (err) {
    throw new Error(`${name}: ${err instanceof Error ? err.message : String(err)}`, {
      cause: err instanceof Error ? err.cause : undefined,
    });
  }
}

export async function send(
  url: string,
  body: Uint8Array,
  headers: Record<string, string>,
  o: { method?: 'POST' | 'PUT'; status?: number } = {},
): Promise<string> {
  const res = await request(url, { method: o.method ?? 'POST', headers, body: Buffer.from(body), dispatcher: pool });
  const text = await res.body.text();
  if (res.statusCode !== (o.status ?? 201)) throw new Error(`send: ${res.statusCode} ${text}`);
  return text;
}

export async function getJson(url: string, headers: Record<string, string>): Promise<any> {
  const res = await request(url, { headers, dispatcher: pool });
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`GET ${url}: ${res.statusCode} ${text}`);
  return JSON.parse(text);
}
