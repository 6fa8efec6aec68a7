import type { SocketKind } from '../../shared/notifications/types.js';
import type { Attachment } from './socket-attachment.js';

/** What the consumers need of the shard's sockets (sockets.ts). */
interface ConsumerSockets {
  of(kind: SocketKind, user: string): readonly WebSocket[];
  attachment(ws: WebSocket): Attachment;
  update(ws: WebSocket, attachment: Attachment): void;
  forget(ws: WebSocket): void;
}

/**
 * How long a consumer may leave an event unacknowledged while another socket of its client waits,
 * before it is taken for gone: cannon closes a socket that answers no ping within its activity and
 * pong timeouts (20 s each), and workerd cannot ping.
 */
export const GONE_AFTER_MS = 40_000;

/**
 * One consumer per client queue, as a RabbitMQ queue hands each message to one consumer: the
 * client's first `/events` socket consumes, later ones wait (they get nothing) until it closes,
 * then the one that connected next takes over. A client reconnects when it takes its socket for
 * dead, which the runtime may not have noticed: so while a socket waits, a consumer that leaves an
 * event unacknowledged for GONE_AFTER_MS is closed, as cannon would close it, and the next takes over.
 */
export class QueueConsumers {
  constructor(
    private readonly sockets: ConsumerSockets,
    /** The socket starts consuming its client's queue: backlog, marker, live events. */
    private readonly start: (ws: WebSocket, a: Attachment) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** A socket of a queue-consuming client connected: it consumes, or waits for the one that does. */
  connected(ws: WebSocket, a: Attachment): void {
    const consumer = this.consumerOf(a.user, a.client!, ws);
    if (consumer === undefined) {
      this.start(ws, a);
      return;
    }
    this.sockets.update(ws, { ...a, waiting: true });
    if (this.gone(this.sockets.attachment(consumer))) this.dismiss(consumer);
  }

  /** A socket closed, and Sockets forgot it: if it was the consumer, the client's next socket takes over. */
  closed(ws: WebSocket): void {
    const a = this.sockets.attachment(ws);
    if (a.kind !== 'events' || a.client === undefined || a.waiting) return;
    if (this.consumerOf(a.user, a.client, ws) !== undefined) return;
    const client = a.client;
    const next = this.sockets
      .of('events', a.user)
      .filter((s) => s !== ws && this.sockets.attachment(s).client === client)
      .sort((x, y) => (this.sockets.attachment(x).opened ?? 0) - (this.sockets.attachment(y).opened ?? 0))[0];
    if (next === undefined) return;
    const b = { ...this.sockets.attachment(next), waiting: false };
    this.sockets.update(next, b);
    this.start(next, b);
  }

  /**
   * The consumer was sent an event to acknowledge. While a socket of its client waits, the first
   * such event left unacknowledged is timed; returns whether the consumer is gone (see dismiss).
   */
  handed(ws: WebSocket, a: Attachment): boolean {
    if (a.unackedSince !== undefined) return this.gone(a);
    if (this.waitingFor(a.user, a.client!)) this.sockets.update(ws, { ...a, unackedSince: this.now() });
    return false;
  }

  acked(ws: WebSocket, a: Attachment): void {
    if (a.unackedSince !== undefined) this.sockets.update(ws, { ...a, unackedSince: undefined });
  }

  /** Closes a consumer taken for gone; the client's next socket takes over. */
  dismiss(ws: WebSocket): void {
    try {
      ws.close(1002, 'inactivity');
    } catch {
      // already closing
    }
    this.sockets.forget(ws);
    this.closed(ws);
  }

  private gone(a: Attachment): boolean {
    return a.unackedSince !== undefined && this.now() - a.unackedSince >= GONE_AFTER_MS;
  }

  /** The socket other than `except` that consumes the client's queue, if one is connected. */
  private consumerOf(user: string, client: string, except: WebSocket): WebSocket | undefined {
    return this.sockets.of('events', user).find((s) => {
      const a = this.sockets.attachment(s);
      return s !== except && a.client === client && a.waiting !== true;
    });
  }

  private waitingFor(user: string, client: string): boolean {
    return this.sockets.of('events', user).some((s) => {
      const a = this.sockets.attachment(s);
      return a.client === client && a.waiting === true;
    });
  }
}
