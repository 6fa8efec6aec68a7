import type { SocketKind } from '../../shared/notifications/types.js';
import type { Outgoing } from './outgoing.js';
import type { Attachment } from './socket-attachment.js';

export type { Attachment } from './socket-attachment.js';

const encoder = new TextEncoder();
const tag = (kind: SocketKind, user: string) => `${kind}:${user}`;

/** Open sockets by kind, then user: looked up without building a key string per recipient. */
type ByUser = Record<SocketKind, Map<string, WebSocket[]>>;

function add(map: ByUser, a: Attachment, ws: WebSocket): void {
  const list = map[a.kind].get(a.user);
  if (list === undefined) map[a.kind].set(a.user, [ws]);
  else list.push(ws);
}
/** Sends text as a binary frame, as cannon sends everything; a socket closing under us is ignored. */
export function sendText(ws: WebSocket, text: string): void {
  try {
    ws.send(encoder.encode(text));
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
  private byUser: ByUser | undefined;

  constructor(private readonly ctx: DurableObjectState) {}

  accept(attachment: Attachment): { response: Response; socket: WebSocket } {
    const pair = new WebSocketPair();
    const [client, server] = [pair[0], pair[1]];
    this.ctx.acceptWebSocket(server, [tag(attachment.kind, attachment.user)]);
    this.update(server, attachment);
    if (this.byUser !== undefined) add(this.byUser, attachment, server);
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
    if (this.byUser === undefined) {
      this.byUser = { await: new Map(), events: new Map() };
      for (const ws of this.ctx.getWebSockets()) add(this.byUser, this.attachment(ws), ws);
    }
    return this.byUser[kind].get(user) ?? [];
  }

  /** Every open socket of a kind, whoever's. */
  all(kind: SocketKind): WebSocket[] {
    return this.ctx.getWebSockets().filter((ws) => this.attachment(ws).kind === kind);
  }

  /** A socket closed or failed: no more deliveries to it. */
  forget(ws: WebSocket): void {
    if (this.byUser === undefined) return;
    const a = this.attachment(ws);
    const users = this.byUser[a.kind];
    const rest = (users.get(a.user) ?? []).filter((s) => s !== ws);
    if (rest.length === 0) users.delete(a.user);
    else users.set(a.user, rest);
  }

  /** Whether one of the user's `/await` sockets is the client's (it gets what is for the client). */
  live(user: string, client: string): boolean {
    return this.of('await', user).some((ws) => this.attachment(ws).client === client);
  }

  /** `/await`: a binary `{id, transient, payload}` frame to every socket the notification is for; returns how many. */
  deliverAwait(user: string, n: Outgoing): number {
    const sockets = this.of('await', user);
    const listed = n.listed;
    if (sockets.length === 0 || listed === undefined) return 0;
    const frame = n.payload.awaitFrame(n.id, n.middle);
    let sent = 0;
    for (const ws of sockets) {
      const a = this.attachment(ws);
      if (n.origin !== undefined && a.connection === n.origin) continue;
      if (listed !== null && a.client !== undefined && !listed.includes(a.client)) continue;
      try {
        ws.send(frame);
        sent++;
      } catch {
        // closing
      }
    }
    return sent;
  }

  /**
   * cannon's `/await` answers the clients' application-level `ping`, text or binary, with a binary
   * `pong` (the web client reads every frame as bytes); anything else a client sends is ignored.
   * The runtime's auto-response cannot do it: it answers text with text.
   */
  static answerAwaitFrame(ws: WebSocket, message: string | ArrayBuffer): void {
    const text = typeof message === 'string' ? message : new TextDecoder().decode(message);
    if (text === 'ping') sendText(ws, 'pong');
  }
}
