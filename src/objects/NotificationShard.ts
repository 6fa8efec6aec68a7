import { DurableObject } from 'cloudflare:workers';
import { EventsChannel } from './notifications/events-channel.js';
import { QueueStore } from './notifications/queue-store.js';
import { Sockets } from './notifications/sockets.js';
import { LogStore } from './notifications/log-store.js';
import { MarksStore } from './notifications/marks-store.js';
import { RosterStore } from './notifications/roster-store.js';
import { LegacyClientStore } from './notifications/legacy-client-store.js';
import { type Route, route } from './notifications/routing.js';
import { type Audience, audience } from './notifications/row-entries.js';
import { Payload } from './notifications/outgoing.js';
import { NativePushes } from './notifications/native-pushes.js';
import { PushTokenStore } from './notifications/push-token-store.js';
import { type AppendCounts, countAppend, noCounts } from './notifications/shard-metrics.js';
import type { PushAddress } from '../shared/notifications/native-push.js';
import { sameForAll } from '../shared/notifications/deliveries.js';
import { pushRemovedEvent } from '../shared/events/push-events.js';
import type { Delivery, ListQuery, ListResult, QueuedNotification, SocketKind } from '../shared/notifications/types.js';
import { seqTime, UuidV1Generator, uuidV1Seq } from '../shared/uuid-v1.js';
import { NativePushQueues } from './notifications/native-push-queue.js';

/**
 * The notification streams, client queues and websocket sessions of the users of one shard (see
 * notifications/sharding.ts). Every event for a user is appended here (ordered, v1 UUID ids, kept
 * for the notification TTL), queued for the clients that consume notifications, and pushed to
 * the user's live sockets. Sockets use the hibernation API, so idle users cost nothing.
 */
export class NotificationShard extends DurableObject<Env> {
  private readonly stream: LogStore;
  private readonly queues: QueueStore;
  private readonly marks: MarksStore;
  private readonly rosters: RosterStore;
  private readonly legacy: LegacyClientStore;
  private readonly sockets: Sockets;
  private readonly events: EventsChannel;
  private readonly tokens: PushTokenStore;
  private readonly pushes: NativePushes;
  private readonly pushQueues: NativePushQueues;
  private readonly ids = new UuidV1Generator();
  /** Ids are made no earlier than this (ms): after the last stored one, should the clock be behind. */
  private readonly idFloor: number;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    // Queues are cursors over the log: before old rows go, the cursors behind them move up.
    this.stream = ctx.storage.transactionSync(
      () => new LogStore(ctx.storage.sql, (cutoff) => this.queues.expire(cutoff)),
    );
    this.idFloor = seqTime(this.stream.lastSeq()) + 1;
    this.queues = new QueueStore(ctx.storage.sql, this.stream, () => uuidV1Seq(this.nextId(Date.now())));
    this.marks = new MarksStore(ctx.storage.sql);
    this.rosters = new RosterStore(ctx.storage.sql);
    this.legacy = new LegacyClientStore(ctx.storage.sql);
    this.sockets = new Sockets(ctx);
    this.events = new EventsChannel(this.sockets, this.queues);
    this.tokens = new PushTokenStore(ctx.storage.sql);
    this.pushes = new NativePushes(this.tokens, {
      live: (user, client) => this.sockets.live(user, client),
      queued: (user, client) => this.queues.has(user, client),
    });
    this.pushQueues = new NativePushQueues(env, ctx.id);
  }

  /** Stores deliveries for some of the shard's users (transient ones are only pushed) and delivers them. */
  append(batch: Delivery[], ttlSeconds: number): void {
    this.store(ttlSeconds, () => batch);
  }

  /** Stores and delivers what `change` makes: its writes and the deliveries in one transaction. */
  private store(ttlSeconds: number, change: () => Delivery[]): void {
    // One transaction for the batch: a commit per row would dominate the cost of a fan-out.
    const counts = noCounts();
    try {
      this.ctx.storage.transactionSync(() => this.appendNow(change(), ttlSeconds, counts));
    } catch (err) {
      this.marks.discard();
      this.rosters.discard();
      this.pushes.discard();
      this.tokens.discard();
      throw err;
    }
    const target = this.pushes.size > 0 ? this.pushQueues.next() : undefined;
    if (target === undefined) this.pushes.discard();
    else {
      counts.pushes = this.pushes.size;
      counts.pushQueue = target.binding;
      this.ctx.waitUntil(this.pushes.flush(target.queue));
    }
    countAppend(this.env, this.ctx, counts);
  }

  private appendNow(batch: Delivery[], ttlSeconds: number, counts: AppendCounts): void {
    const now = Date.now();
    this.stream.purge(ttlSeconds, now);
    const next = () => this.nextId(now);
    for (const sent of batch) {
      if (!this.marks.fresh(sent, (x) => this.stream.holds(x))) continue;
      const d = sent.roster === undefined ? sent : { ...sent, to: this.rosters.entries(sent.roster) };
      const routes = new Array<Route>(d.to.length);
      let audiences: Audience[] | undefined;
      for (let i = 0; i < d.to.length; i++) {
        const [user, clients] = d.to[i]!;
        const r = (routes[i] = route(clients, this.queues.clients(user), this.legacy.of(user)));
        if (r.listed === clients) continue;
        audiences ??= d.to.map((e) => e[1]);
        audiences[i] = audience(clients, r.listed);
      }
      const ids = this.stream.append(d, next, audiences);
      const payload = new Payload(d.head, d.tail, d.transient === true);
      if (d.transient === true) counts.transient += d.to.length;
      else counts.stored += d.to.length;
      for (let i = 0; i < d.to.length; i++) {
        const [user, clients, middle] = d.to[i]!;
        const out = {
          id: ids[i]!,
          payload,
          middle,
          clients,
          listed: routes[i]!.listed,
          temporary: routes[i]!.temporary,
          origin: d.origin?.user === user ? d.origin.connection : undefined,
        };
        counts.awaitFrames += this.sockets.deliverAwait(user, out);
        counts.eventsFrames += this.events.deliver(user, out);
        if (d.transient !== true && d.nativePush !== false) this.pushes.collect(user, out.id, clients, out.origin);
      }
      if (sent.roster !== undefined) this.rosters.after(sent.roster);
    }
    this.marks.save();
  }

  /** A notification id, after every one made before, also before a restart. */
  private nextId(now: number): string {
    return this.ids.next(Math.max(now, this.idFloor));
  }

  list(user: string, q: ListQuery): ListResult {
    return this.stream.list(user, q);
  }

  last(user: string, client: string | undefined, ttlSeconds: number): QueuedNotification | undefined {
    return this.stream.last(user, client, ttlSeconds);
  }

  get(user: string, id: string, client: string | undefined, ttlSeconds: number): QueuedNotification | undefined {
    return this.stream.get(user, id, client, ttlSeconds);
  }

  /**
   * A client that consumes notifications gets a durable queue (capability `consumable-notifications`).
   * `legacy`: the user's clients that do not, as brig has them now, if it was read (see LegacyClientStore).
   */
  enableQueue(user: string, client: string, legacy?: readonly string[]): void {
    this.queues.enable(user, client);
    this.legacy.consuming(user, client, legacy);
  }

  /** A client that consumes no queue was added; `legacy`: the user's others that do not, as brig has them now. */
  addLegacyClient(user: string, client: string, legacy: readonly string[]): void {
    this.legacy.add(user, client, legacy);
  }

  pushTokens(user: string): readonly PushAddress[] {
    return this.tokens.of(user);
  }

  /** Registers a device for native pushes; returns the address it replaces, if any. */
  addPushToken(user: string, address: PushAddress): PushAddress[] {
    return this.tokens.add(user, address);
  }

  /** Unregisters a device token (all of the user's addresses with it); returns them. */
  removePushToken(user: string, token: string): PushAddress[] {
    return this.tokens.remove(user, (a) => a.token === token);
  }

  /**
   * A device the push service no longer takes: the user's addresses with its token go, and each
   * of their clients is told (`user.push-remove`) in the same transaction; a crash cannot keep one
   * without the other (the retried push would find the token gone and tell nobody). Returns them.
   */
  dropPushToken(user: string, token: string, ttlSeconds: number): PushAddress[] {
    let gone: PushAddress[] = [];
    this.store(ttlSeconds, () => {
      gone = this.tokens.remove(user, (a) => a.token === token);
      return gone.map((g) => sameForAll(JSON.stringify([pushRemovedEvent(g)]), [{ user, clients: [g.client] }]));
    });
    return gone;
  }

  /** A client was deleted: its queue and push addresses go; the addresses are returned. */
  forgetClient(user: string, client: string): PushAddress[] {
    this.queues.drop(user, client);
    this.legacy.remove(user, client);
    return this.tokens.remove(user, (a) => a.client === client);
  }

  /** An account was deleted: its queues and push addresses go; the addresses are returned. */
  forgetUser(user: string): PushAddress[] {
    for (const client of this.queues.clients(user)) this.queues.drop(user, client);
    this.legacy.forget(user);
    return this.tokens.remove(user, () => true);
  }

  /** Websocket upgrades, forwarded by cannon's routes with the session facts in headers. */
  override async fetch(req: Request): Promise<Response> {
    const kind = req.headers.get('x-socket-kind') as SocketKind | null;
    const user = req.headers.get('z-user');
    if (
      req.headers.get('upgrade')?.toLowerCase() !== 'websocket' ||
      (kind !== 'await' && kind !== 'events') ||
      user === null
    )
      return new Response('expected a websocket upgrade', { status: 400 });
    const attachment = {
      kind,
      user,
      client: req.headers.get('z-client') ?? undefined,
      connection: req.headers.get('z-connection') ?? undefined,
      marker: req.headers.get('x-sync-marker') ?? undefined,
      ...(kind === 'events' ? { ttlSeconds: Number(req.headers.get('x-notification-ttl')), opened: Date.now() } : {}),
    };
    const { response, socket } = this.sockets.accept(attachment);
    if (kind === 'events') this.events.onConnect(socket, this.sockets.attachment(socket));
    return response;
  }

  override webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): void {
    const a = this.sockets.attachment(ws);
    if (a.kind === 'await') {
      Sockets.answerAwaitFrame(ws, message);
      return;
    }
    // `/events` takes JSON only: a `ping` there is closed as unparsable, as cannon does.
    this.events.onMessage(ws, a, typeof message === 'string' ? message : new TextDecoder().decode(message));
  }

  override webSocketError(ws: WebSocket): void {
    this.sockets.forget(ws);
    this.events.onClose(ws);
  }

  override webSocketClose(ws: WebSocket, code: number, reason: string): void {
    this.sockets.forget(ws);
    this.events.onClose(ws);
    try {
      ws.close(code === 1005 || code === 1006 ? 1000 : code, reason);
    } catch {
      // already closed
    }
  }
}
