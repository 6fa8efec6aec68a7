import { DurableObject } from 'cloudflare:workers';
import type { Env } from '../edge/env.js';
import { EventsChannel } from './notifications/events-channel.js';
import { QueueStore } from './notifications/queue-store.js';
import { Sockets, type SocketKind } from './notifications/sockets.js';
import { StreamStore } from './notifications/stream-store.js';
import type { ListQuery, ListResult, NotificationInput, QueuedNotification } from './notifications/types.js';
import { UuidV1Generator } from './notifications/uuid-v1.js';

/**
 * One user's notification stream, client queues and websocket sessions. Every event for the user
 * is appended here (ordered, v1 UUID ids, kept for the notification TTL), queued for clients that
 * consume notifications, and pushed to live sockets. Sockets use the hibernation API, so an idle
 * user costs nothing.
 */
export class UserNotifications extends DurableObject<Env> {
  private readonly stream: StreamStore;
  private readonly queues: QueueStore;
  private readonly sockets: Sockets;
  private readonly events: EventsChannel;
  private readonly ids = new UuidV1Generator();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.stream = new StreamStore(ctx.storage.sql);
    this.queues = new QueueStore(ctx.storage.sql);
    this.sockets = new Sockets(ctx);
    this.events = new EventsChannel(this.sockets, this.queues);
  }

  /** Appends notifications (transient ones are only pushed) and delivers them. */
  append(inputs: NotificationInput[], ttlSeconds: number): string[] {
    const now = Date.now();
    this.stream.purge(ttlSeconds, now);
    return inputs.map((input) => {
      const id = this.ids.next(now);
      const payloadJson = input.payloadJson ?? JSON.stringify(input.payload ?? []);
      if (!input.transient) this.stream.append(id, input, payloadJson, now);
      this.sockets.deliverAwait(id, input, payloadJson);
      this.events.deliver(`{"id":${JSON.stringify(id)},"payload":${payloadJson}}`, input, now);
      return id;
    });
  }

  list(q: ListQuery): ListResult {
    return this.stream.list(q);
  }

  last(client: string | undefined, ttlSeconds: number): QueuedNotification | undefined {
    return this.stream.last(client, ttlSeconds);
  }

  get(id: string, client: string | undefined, ttlSeconds: number): QueuedNotification | undefined {
    return this.stream.get(id, client, ttlSeconds);
  }

  /** A client that consumes notifications gets a durable queue (capability `consumable-notifications`). */
  enableQueue(client: string): void {
    this.queues.enable(client);
  }

  dropQueue(client: string): void {
    this.queues.drop(client);
  }

  /** Websocket upgrades, forwarded by cannon's routes with the session facts in headers. */
  override fetch(req: Request): Response {
    const kind = req.headers.get('x-socket-kind') as SocketKind | null;
    if (req.headers.get('upgrade')?.toLowerCase() !== 'websocket' || (kind !== 'await' && kind !== 'events'))
      return new Response('expected a websocket upgrade', { status: 400 });
    const attachment = {
      kind,
      client: req.headers.get('z-client') ?? undefined,
      connection: req.headers.get('z-connection') ?? undefined,
      marker: req.headers.get('x-sync-marker') ?? undefined,
    };
    const { response, socket } = this.sockets.accept(attachment);
    if (kind === 'events') this.events.onConnect(socket, attachment, Number(req.headers.get('x-notification-ttl')));
    return response;
  }

  override webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): void {
    const a = this.sockets.attachment(ws);
    if (Sockets.isBinaryPing(message)) return ws.send(new TextEncoder().encode('pong'));
    if (a.kind === 'events') this.events.onMessage(ws, a, typeof message === 'string' ? message : new TextDecoder().decode(message));
  }

  override webSocketClose(ws: WebSocket, code: number, reason: string): void {
    try {
      ws.close(code === 1005 || code === 1006 ? 1000 : code, reason);
    } catch {
      // already closed
    }
  }
}
