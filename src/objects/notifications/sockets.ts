import type { SocketKind } from '../../shared/notifications/types.js';

/** One notification on its way to a user's sockets. */
export interface Outgoing {
  id: string;
  /** The payload, a JSON array's text. */
  payloadJson: string;
  /** Only these clients' sockets get it (all of the user's when null). */
  clients: string[] | null;
  transient: boolean;
  /** The connection that caused it: that socket does not get it back. */
  origin: string | undefined;
}

export interface Attachment {
  kind: SocketKind;
  user: string;
  client?: string | undefined;
  connection?: string | undefined;
  /** `/events`: the marker id the client asked for (`sync_marker`). */
  marker?: string | undefined;
  /** `/events`: `notifications_missed` was sent; only `ack_full_sync` may come next. */
  awaitingFullSync?: boolean | undefined;
  /** `/events`: how long the client may stay silent (ms), and when it was last heard (see inactivity.ts). */
  idleLimitMs?: number | undefined;
  lastSeen?: number | undefined;
}

const encoder = new TextEncoder();
const tag = (kind: SocketKind, user: string) => `${kind}:${user}`;

function add(map: Map<string, WebSocket[]>, key: string, ws: WebSocket): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [ws]);
  else list.push(ws);
}
const PING = 'ping';

/** Sends JSON text as a binary frame, as cannon does; a socket closing under us is ignored. */
export function sendText(ws: WebSocket, json: string): void {
  try {
    ws.send(encoder.encode(json));
  } catch {
    // closing; its close handler cleans up
  }
}

export const sendJson = (ws: WebSocket, message: unknown) => sendText(ws, JSON.stringify(message));

/** The websockets of a shard's users (hibernatable): whose they are, and the legacy `/await` delivery. */
export class Sockets {
  /** Attachments read back after hibernation, so each is deserialized once per wake-up. */
  private readonly attachments = new WeakMap<WebSocket, Attachment>();
  /** Open sockets by kind and user, built once per wake-up: every append looks its users' up. */
  private byTag: Map<string, WebSocket[]> | undefined;

  constructor(private readonly ctx: DurableObjectState) {
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair(PING, 'pong'));
  }

  accept(attachment: Attachment): { response: Response; socket: WebSocket } {
    const pair = new WebSocketPair();
    const [client, server] = [pair[0], pair[1]];
    this.ctx.acceptWebSocket(server, [tag(attachment.kind, attachment.user)]);
    this.update(server, attachment);
    if (this.byTag !== undefined) add(this.byTag, tag(attachment.kind, attachment.user), server);
    return { response: new Response(null, { status: 101, webSocket: client }), socket: server };
  }

  update(ws: WebSocket, attachment: Attachment): void {
    ws.serializeAttachment(attachment);
    this.attachments.set(ws, attachment);
  }

  attachment(ws: WebSocket): Attachment {
    let a = this.attachments.get(ws);
    if (a === undefined) {
      a = ws.deserializeAttachment() as Attachment;
      this.attachments.set(ws, a);
    }
    return a;
  }

  of(kind: SocketKind, user: string): readonly WebSocket[] {
    if (this.byTag === undefined) {
      this.byTag = new Map();
      for (const ws of this.ctx.getWebSockets()) {
        const a = this.attachment(ws);
        add(this.byTag, tag(a.kind, a.user), ws);
      }
    }
    return this.byTag.get(tag(kind, user)) ?? [];
  }

  /** Every open socket of a kind, whoever's. */
  all(kind: SocketKind): WebSocket[] {
    return this.ctx.getWebSockets().filter((ws) => this.attachment(ws).kind === kind);
  }

  /** A socket closed or failed: no more deliveries to it. */
  forget(ws: WebSocket): void {
    if (this.byTag === undefined) return;
    const a = this.attachment(ws);
    const t = tag(a.kind, a.user);
    const rest = (this.byTag.get(t) ?? []).filter((s) => s !== ws);
    if (rest.length === 0) this.byTag.delete(t);
    else this.byTag.set(t, rest);
  }

  /** `/await`: a binary `{id, transient, payload}` frame to every socket the notification is for. */
  deliverAwait(user: string, n: Outgoing): void {
    const sockets = this.of('await', user);
    if (sockets.length === 0) return;
    const frame = encoder.encode(`{"id":"${n.id}","transient":${n.transient},"payload":${n.payloadJson}}`);
    for (const ws of sockets) {
      const a = this.attachment(ws);
      if (n.origin !== undefined && a.connection === n.origin) continue;
      if (n.clients !== null && a.client !== undefined && !n.clients.includes(a.client)) continue;
      try {
        ws.send(frame);
      } catch {
        // closing
      }
    }
  }

  /** A binary application-level `ping` gets a binary `pong` (text pings are answered without waking us). */
  static isBinaryPing(message: string | ArrayBuffer): boolean {
    return typeof message !== 'string' && new TextDecoder().decode(message) === PING;
  }
}
