import { timeSeq, uuidV1Seq } from '../../shared/uuid-v1.js';
import type { QueueStore } from './queue-store.js';
import { QueueConsumers } from './queue-consumers.js';
import type { Outgoing } from './outgoing.js';
import { sendJson, sendText, type Attachment, type Sockets } from './sockets.js';

type ClientMessage = { type: 'ack'; data: { delivery_tag: number; multiple?: boolean } } | { type: 'ack_full_sync' };

function parse(text: string): ClientMessage | undefined {
  try {
    const m = JSON.parse(text) as { type?: unknown; data?: { delivery_tag?: unknown; multiple?: unknown } };
    if (m.type === 'ack_full_sync') return { type: 'ack_full_sync' };
    if (
      m.type === 'ack' &&
      Number.isSafeInteger(m.data?.delivery_tag) &&
      (m.data?.multiple === undefined || typeof m.data.multiple === 'boolean')
    )
      return {
        type: 'ack',
        data: { delivery_tag: m.data!.delivery_tag as number, multiple: m.data!.multiple as boolean | undefined },
      };
  } catch {
    // refused below
  }
  return undefined;
}

const eventFrame = (eventJson: string, tag: number) =>
  `{"type":"event","data":{"event":${eventJson},"delivery_tag":${tag}}}`;

/**
 * `GET /events`: queue-consuming clients get their durable queue (backlog redelivered until
 * acked, then the synchronization marker they asked for with `sync_marker`, then live events). A
 * socket without a client is a temporary consumer: live events only, nothing kept for it.
 */
export class EventsChannel {
  /** Delivery tags of sockets without a queue: nothing to acknowledge, just increasing. */
  private liveTag = 0;

  private readonly consumers: QueueConsumers;

  constructor(
    private readonly sockets: Sockets,
    private readonly queues: QueueStore,
    now: () => number = Date.now,
  ) {
    this.consumers = new QueueConsumers(sockets, (ws, a) => this.start(ws, a), now);
  }

  onConnect(ws: WebSocket, a: Attachment): void {
    if (a.client === undefined || !this.queues.has(a.user, a.client)) return;
    this.consumers.connected(ws, a);
  }

  onClose(ws: WebSocket): void {
    this.consumers.closed(ws);
  }

  /** The socket starts consuming its client's queue. */
  private start(ws: WebSocket, a: Attachment): void {
    const user = a.user;
    const client = a.client!;
    const cutoff = a.ttlSeconds === undefined ? 0 : timeSeq(Date.now() - a.ttlSeconds * 1000);
    this.queues.expireOne(user, client, cutoff);
    if (this.queues.missed(user, client)) {
      this.sockets.update(ws, { ...a, awaitingFullSync: true });
      sendJson(ws, { type: 'notifications_missed' });
      return;
    }
    this.sendBacklog(ws, user, client, a.marker, cutoff);
  }

  private sendBacklog(ws: WebSocket, user: string, client: string, marker: string | undefined, cutoff: number): void {
    for (const entry of this.queues.pending(user, client, cutoff)) sendText(ws, eventFrame(entry.eventJson, entry.tag));
    // As cannon: a marker only for a client that asked for one.
    if (marker === undefined) return;
    sendJson(ws, { type: 'synchronization', data: { marker_id: marker, delivery_tag: this.queues.markerTag() } });
  }

  /**
   * Pushes the notification to the user's connected `/events` sockets. Its queue-consuming
   * recipients' queues hold it already: it is in the log, after their cursors. Returns how many
   * sockets it was sent to.
   */
  deliver(user: string, n: Outgoing): number {
    const sockets = this.sockets.of('events', user);
    if (sockets.length === 0) return 0;
    const queueClients = this.queues.clients(user);
    const eventJson = `{"id":"${n.id}","payload":${n.payload.json(n.middle)}}`;
    const targets = n.clients === null ? queueClients : queueClients.filter((c) => n.clients!.includes(c));
    // Transient events are not queued: tag 0 acknowledges nothing.
    const queueTag = n.payload.transient ? 0 : uuidV1Seq(n.id);
    let sent = 0;
    let gone: WebSocket[] | undefined;
    for (const ws of sockets) {
      const a = this.sockets.attachment(ws);
      if (a.awaitingFullSync || a.waiting) continue;
      if (a.client === undefined) {
        if (!n.temporary) continue;
        sendText(ws, eventFrame(eventJson, ++this.liveTag));
      } else if (targets.includes(a.client)) {
        sendText(ws, eventFrame(eventJson, queueTag));
        if (queueTag !== 0 && this.consumers.handed(ws, a)) (gone ??= []).push(ws);
      } else continue;
      sent++;
    }
    // After the loop: the socket taking over gets this event with its backlog, not twice.
    for (const ws of gone ?? []) this.consumers.dismiss(ws);
    return sent;
  }

  onMessage(ws: WebSocket, a: Attachment, text: string): void {
    const m = parse(text);
    if (m === undefined) {
      this.refuse(ws, 'failed-to-parse');
      return;
    }
    // It was handed nothing: there is nothing it could acknowledge.
    if (a.waiting) return;
    if (a.awaitingFullSync) {
      if (m.type !== 'ack_full_sync') {
        this.refuse(ws, 'unexpected-ack');
        return;
      }
      this.queues.clearMissed(a.user, a.client!);
      this.sockets.update(ws, { ...a, awaitingFullSync: false });
      // The cursor moved to the cut-off when the socket connected: what is left after it is the backlog.
      this.sendBacklog(ws, a.user, a.client!, a.marker, 0);
      return;
    }
    if (m.type === 'ack' && a.client !== undefined) {
      this.queues.ack(a.user, a.client, m.data.delivery_tag, m.data.multiple === true);
      this.consumers.acked(ws, a);
    }
  }

  /** Closes a misbehaving socket; a socket waiting for the queue takes over now, not when the close completes. */
  private refuse(ws: WebSocket, reason: string): void {
    ws.close(1003, reason);
    this.sockets.forget(ws);
    this.consumers.closed(ws);
  }
}
