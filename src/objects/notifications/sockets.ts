import type { NotificationInput, QueuedNotification } from './types.js';

export type SocketKind = 'await' | 'events';

interface Attachment {
  kind: SocketKind;
  client?: string | undefined;
  connection?: string | undefined;
}

const encoder = new TextEncoder();
const PING = 'ping';

/** The user's websockets (hibernatable): who they are, and what each one is sent. */
export class Sockets {
  /** Attachments read back after hibernation, so each is deserialized once per wake-up. */
  private readonly attachments = new WeakMap<WebSocket, Attachment>();

  constructor(private readonly ctx: DurableObjectState) {
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair(PING, 'pong'));
  }

  accept(kind: SocketKind, session: Omit<Attachment, 'kind'>): Response {
    const pair = new WebSocketPair();
    const [client, server] = [pair[0], pair[1]];
    this.ctx.acceptWebSocket(server, [kind]);
    const attachment: Attachment = { kind, ...session };
    server.serializeAttachment(attachment);
    this.attachments.set(server, attachment);
    return new Response(null, { status: 101, webSocket: client });
  }

  private attachment(ws: WebSocket): Attachment {
    let a = this.attachments.get(ws);
    if (a === undefined) {
      a = ws.deserializeAttachment() as Attachment;
      this.attachments.set(ws, a);
    }
    return a;
  }

  /** `/await`: a binary `{id, transient, payload}` frame to every socket the notification is for. */
  deliver(n: QueuedNotification, input: NotificationInput): void {
    const sockets = this.ctx.getWebSockets('await');
    if (sockets.length === 0) return;
    const frame = encoder.encode(JSON.stringify({ id: n.id, transient: input.transient === true, payload: n.payload }));
    for (const ws of sockets) {
      const a = this.attachment(ws);
      if (input.originConnection !== undefined && a.connection === input.originConnection) continue;
      if (input.clients !== undefined && a.client !== undefined && !input.clients.includes(a.client)) continue;
      try {
        ws.send(frame);
      } catch {
        // a socket closing under us; its close handler cleans up
      }
    }
  }

  /** An application-level `ping` gets `pong` in the same frame type (text pings are answered without waking us). */
  onMessage(ws: WebSocket, message: string | ArrayBuffer): void {
    if (typeof message === 'string') {
      if (message === PING) ws.send('pong');
    } else if (new TextDecoder().decode(message) === PING) ws.send(encoder.encode('pong'));
  }

  onClose(ws: WebSocket, code: number, reason: string): void {
    try {
      ws.close(code === 1005 || code === 1006 ? 1000 : code, reason);
    } catch {
      // already closed
    }
  }
}
