/**
 * `GET /v8/events`, the consumable-notifications socket, as the current web app's api-client
 * (27.9x) drives it: the client's durable queue, each event acknowledged by its delivery tag once
 * handled, the synchronization marker acknowledged, `notifications_missed` answered with
 * `ack_full_sync`, and no application pings (cannon pings the browser, which answers by itself).
 * @wireapp/api-client 27.0.0, the SDK this page bundles, has no such socket: this is its protocol.
 */
export interface ConsumedNotification {
  id: string;
  payload: Array<{ type: string; [key: string]: unknown }>;
}

type Frame =
  | { type: 'event'; data: { event: ConsumedNotification; delivery_tag: number } }
  | { type: 'synchronization'; data: { marker_id: string; delivery_tag: number } }
  | { type: 'notifications_missed' };

export interface EventsSocketOptions {
  /** The socket's URL, with a current access token. */
  url: () => string;
  /** Handles one notification; the socket acknowledges it when this resolves. */
  onNotification: (n: ConsumedNotification) => Promise<void>;
  /** The marker came: the backlog is delivered. */
  onSynchronized: () => void;
}

export class EventsSocket {
  private socket: WebSocket | undefined;
  private closedByUs = false;
  /** Frames are handled one after the other, in the order they came. */
  private queue: Promise<void> = Promise.resolve();
  /** How often the socket was (re)opened. */
  opened = 0;
  readonly closes: Array<{ code: number; reason: string }> = [];

  constructor(private readonly options: EventsSocketOptions) {}

  /** Opens the socket; resolves once it is open. */
  connect(): Promise<void> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(this.options.url());
      ws.binaryType = 'arraybuffer';
      this.socket = ws;
      ws.onopen = () => {
        this.opened++;
        resolve();
      };
      ws.onerror = () => reject(new Error('the /events socket failed'));
      ws.onmessage = (m) => {
        const text = typeof m.data === 'string' ? m.data : new TextDecoder().decode(m.data as ArrayBuffer);
        this.queue = this.queue.then(() => this.handle(JSON.parse(text) as Frame));
      };
      ws.onclose = (e) => {
        this.closes.push({ code: e.code, reason: e.reason });
        // As the web app's reconnecting socket does: open again (and the test sees it happened).
        if (!this.closedByUs) setTimeout(() => void this.connect().catch(() => {}), 1000);
      };
    });
  }

  get open(): boolean {
    return this.socket?.readyState === WebSocket.OPEN;
  }

  close(): void {
    this.closedByUs = true;
    this.socket?.close(1000, 'Closed by client');
  }

  private send(message: unknown): void {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  private async handle(frame: Frame): Promise<void> {
    switch (frame.type) {
      case 'event':
        await this.options.onNotification(frame.data.event);
        this.send({ type: 'ack', data: { delivery_tag: frame.data.delivery_tag, multiple: false } });
        return;
      case 'synchronization':
        this.send({ type: 'ack', data: { delivery_tag: frame.data.delivery_tag, multiple: false } });
        this.options.onSynchronized();
        return;
      case 'notifications_missed':
        this.send({ type: 'ack_full_sync' });
        return;
    }
  }
}
