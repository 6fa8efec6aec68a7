/** The notification sockets (`/await` or `/events`), the notification stream, and the log of every event handled. */
import type { Notification } from '@wireapp/api-client/lib/notification/index.js';
import { WebSocketClient } from '@wireapp/api-client/lib/tcp/index.js';
import type { PageContext } from './context.js';
import { type ConsumedNotification, EventsSocket } from './events-socket.js';
import { WEBSOCKET_URL } from './hosts.js';

/** What the page asks `/events` to send once the backlog is delivered (cannon sends none unasked). */
const SYNC_MARKER = 'page-synchronized';

export type WireEvent = { type: string; [key: string]: unknown };

/** An event as the page handled it: from which socket (or the notification stream), in order. */
export interface LoggedEvent {
  source: 'await' | 'events' | 'notifications';
  notification: string;
  type: string;
  event: WireEvent;
}

export class Notifications {
  /** Every event handled, in the order handled. */
  private readonly log: LoggedEvent[] = [];
  /** The /events socket (v8 clients with consumable notifications). */
  private eventsSocket: EventsSocket | undefined;
  private readonly seen = new Set<string>();
  private lastNotification: string | undefined;
  /** Events are handled one after the other, as they came. */
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly ctx: PageContext,
    private readonly handle: (event: WireEvent) => Promise<void>,
  ) {}

  /**
   * Opens the notification socket: the SDK's `/await` (its reconnecting websocket, with its
   * ping), the notification stream read first; or, for a consumable-notifications client,
   * `/v8/events`.
   */
  async listen(consumable: boolean): Promise<void> {
    const { api } = this.ctx;
    if (consumable) {
      await new Promise<void>((resolve, reject) => {
        this.eventsSocket = new EventsSocket({
          url: () => {
            const token = api.transport.http.accessTokenStore.accessToken?.access_token ?? '';
            return `${WEBSOCKET_URL}/v${this.ctx.version}/events?access_token=${token}&client=${this.ctx.myClient}&sync_marker=${SYNC_MARKER}`;
          },
          onNotification: (n) => this.take(n, 'events'),
          onSynchronized: resolve,
        });
        this.eventsSocket.connect().catch(reject);
      });
      return;
    }
    const ws = api.transport.ws;
    ws.on(WebSocketClient.TOPIC.ON_MESSAGE, (n: Notification) => void this.take(n, 'await'));
    await new Promise<void>((resolve) => {
      api.connect(async () => {
        // As the web app does on every (re)connect: what came meanwhile, from the stream.
        ws.lock();
        try {
          const { notifications } = await api.api.notification.getAllNotifications(
            this.ctx.myClient,
            this.lastNotification,
          );
          for (const n of notifications) void this.take(n, 'notifications');
        } finally {
          ws.unlock();
        }
        resolve();
      });
    });
  }

  private take(n: Notification | ConsumedNotification, source: LoggedEvent['source']): Promise<void> {
    if (this.seen.has(n.id)) return Promise.resolve();
    this.seen.add(n.id);
    if (source !== 'events') this.lastNotification = n.id;
    this.queue = this.queue.then(async () => {
      for (const event of n.payload as unknown as WireEvent[]) {
        this.log.push({ source, notification: n.id, type: event.type, event });
        try {
          await this.handle(event);
        } catch (err) {
          console.error(`page: handling ${event.type} failed:`, err);
        }
      }
      this.ctx.waits.notificationHandled();
    });
    return this.queue;
  }

  /** The client's notification stream as the backend keeps it (`GET /notifications?client=`), in order. */
  async stream(): Promise<LoggedEvent[]> {
    const { notifications } = await this.ctx.api.api.notification.getAllNotifications(this.ctx.myClient);
    return notifications.flatMap((n) =>
      (n.payload as unknown as WireEvent[]).map((event) => ({
        source: 'notifications' as const,
        notification: n.id,
        type: event.type,
        event,
      })),
    );
  }

  /** How often the SDK's websocket sends its `ping` (ms). */
  pingInterval(): number {
    return (this.ctx.api.transport.ws as unknown as { socket: { PING_INTERVAL: number } }).socket.PING_INTERVAL;
  }

  /** The /events socket's life: how often it opened, how it closed. */
  eventsSocketState(): { opened: number; open: boolean; closes: Array<{ code: number; reason: string }> } {
    const s = this.eventsSocket;
    return { opened: s?.opened ?? 0, open: s?.open ?? false, closes: s?.closes ?? [] };
  }

  /** The events handled so far (of these types, when given). */
  events(types?: string[]): LoggedEvent[] {
    return this.log.filter((e) => types === undefined || types.includes(e.type));
  }

  /** Waits until a `user.connection` event with this status was handled. */
  connectionEvent(status: string): Promise<LoggedEvent> {
    return this.ctx.waits.until(
      () =>
        this.log.find(
          (e) => e.type === 'user.connection' && (e.event.connection as { status?: string })?.status === status,
        ),
      `user.connection ${status}`,
    );
  }
}
