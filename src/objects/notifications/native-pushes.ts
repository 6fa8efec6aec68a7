import type { NativePushJob, PushAddress } from '../../shared/notifications/native-push.js';
import type { PushTokenStore } from './push-token-store.js';

/** Jobs per queue message, and messages per send (a queue batch holds at most 100). */
const JOBS_PER_MESSAGE = 50;
const MESSAGES_PER_SEND = 100;

export interface Reach {
  /** Whether the client has a live `/await` socket, which got the notification. */
  live(user: string, client: string): boolean;
  /** Whether the client consumes a queue (`/events`): those never get native pushes. */
  queued(user: string, client: string): boolean;
}

/**
 * The native pushes an append causes (wire's native targets): for each stored notification, the
 * recipient's registered devices that are among its clients and that no websocket reached. They
 * are collected while the append runs and handed to the push queue once it is committed.
 */
export class NativePushes {
  private pending: NativePushJob[] = [];

  constructor(
    private readonly tokens: PushTokenStore,
    private readonly reach: Reach,
  ) {}

  /** `clients` null: all of the user's; `originConnection`: the connection that caused it. */
  collect(user: string, id: string, clients: readonly string[] | null, originConnection: string | undefined): void {
    const registered = this.tokens.of(user);
    if (registered.length === 0) return;
    const to: PushAddress[] = [];
    for (const a of registered) {
      if (clients !== null && !clients.includes(a.client)) continue;
      if (originConnection !== undefined && a.connection === originConnection) continue;
      if (this.reach.live(user, a.client) || this.reach.queued(user, a.client)) continue;
      to.push(a);
    }
    if (to.length > 0) this.pending.push({ user, id, to });
  }

  /** Notifications waiting to be handed to the queue. */
  get size(): number {
    return this.pending.length;
  }

  discard(): void {
    this.pending = [];
  }

  /** Sends what was collected; a failure is logged, not thrown (the notifications are stored). */
  async flush(queue: Queue<NativePushJob[]>): Promise<void> {
    const jobs = this.pending;
    this.pending = [];
    const messages: { body: NativePushJob[] }[] = [];
    for (let i = 0; i < jobs.length; i += JOBS_PER_MESSAGE)
      messages.push({ body: jobs.slice(i, i + JOBS_PER_MESSAGE) });
    try {
      for (let i = 0; i < messages.length; i += MESSAGES_PER_SEND)
        await queue.sendBatch(messages.slice(i, i + MESSAGES_PER_SEND));
    } catch (err) {
      console.error(
        JSON.stringify({ level: 'error', msg: 'native pushes not queued', jobs: jobs.length, err: String(err) }),
      );
    }
  }
}
