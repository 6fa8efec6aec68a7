import { DurableObject } from 'cloudflare:workers';
import type { Env } from '../edge/env.js';
import { StreamStore } from './notifications/stream-store.js';
import type { ListQuery, ListResult, NotificationInput, QueuedNotification } from './notifications/types.js';
import { UuidV1Generator } from './notifications/uuid-v1.js';
import { Sockets, type SocketKind } from './notifications/sockets.js';

/**
 * One user's notification stream and websocket sessions. Every event for the user is appended
 * here (ordered, v1 UUID ids, kept for the notification TTL) and pushed to the user's sockets;
 * sockets use the hibernation API, so an idle user costs nothing.
 */
export class UserNotifications extends DurableObject<Env> {
  private readonly store: StreamStore;
  private readonly ids = new UuidV1Generator();
  private readonly sockets: Sockets;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.store = new StreamStore(ctx.storage.sql);
    this.sockets = new Sockets(ctx);
  }

  /** Appends notifications (transient ones are only pushed) and delivers them to live sockets. */
  append(inputs: NotificationInput[], ttlSeconds: number): string[] {
    const now = Date.now();
    this.store.purge(ttlSeconds, now);
    return inputs.map((n) => {
      const id = this.ids.next(now);
      if (!n.transient) this.store.append(id, n, now);
      this.sockets.deliver({ id, payload: n.payload }, n);
      return id;
    });
  }

  list(q: ListQuery): ListResult {
    return this.store.list(q);
  }

  last(client: string | undefined): QueuedNotification | undefined {
    return this.store.last(client);
  }

  get(id: string, client: string | undefined): QueuedNotification | undefined {
    return this.store.get(id, client);
  }

  /** Websocket upgrades, forwarded by cannon's routes with the session facts in headers. */
  override fetch(req: Request): Response {
    const kind = req.headers.get('x-socket-kind') as SocketKind | null;
    if (req.headers.get('upgrade')?.toLowerCase() !== 'websocket' || (kind !== 'await' && kind !== 'events'))
      return new Response('expected a websocket upgrade', { status: 400 });
    return this.sockets.accept(kind, {
      client: req.headers.get('z-client') ?? undefined,
      connection: req.headers.get('z-connection') ?? undefined,
    });
  }

  override webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): void {
    this.sockets.onMessage(ws, message);
  }

  override webSocketClose(ws: WebSocket, code: number, reason: string): void {
    this.sockets.onClose(ws, code, reason);
  }
}
