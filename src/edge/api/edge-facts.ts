import type { AccessClaims, BotClaims } from '../auth/tokens.js';

/**
 * What the edge (nginz) established about a request, handed to the component apps in-process.
 * wire-server's nginz tells its services in headers (Z-User, Z-Host …) because they are other
 * processes; here the apps run in the same isolate, so the request object carries them, and a
 * client's own Z-* headers mean nothing to any component.
 */
export interface EdgeFacts {
  /** The path the component routes on: without the `/vN` prefix. */
  path: string;
  /** nginx's `$host`: the Host header's name, lower-cased, without the port. */
  zHost: string;
  requestId: string;
  /** The caller nginz authenticated; absent without a valid token (and on the internal ingress). */
  identity: AccessClaims | undefined;
  /** A service provider's token (nginz's Z-Provider), which reaches only `/provider` routes. */
  provider?: string;
  /** A bot's token (nginz's Z-Bot, Z-Provider and Z-Conversation), which reaches only the bot API. */
  bot?: BotClaims;
  /** Set by the route that serves it: its path template (`/users/:uid`), for the metrics. */
  route?: string;
}

const facts = new WeakMap<Request, EdgeFacts>();

export function withEdgeFacts(req: Request, f: EdgeFacts): Request {
  facts.set(req, f);
  return req;
}

export function edgeFactsOf(req: Request): EdgeFacts | undefined {
  return facts.get(req);
}
