import type { Config } from '../../shared/config/index.js';
import type { AccessClaims } from '../auth/tokens.js';
import type { EventPayload, ListQuery, UserNotifications } from '../../shared/notifications/types.js';
import { NotificationShards } from '../../objects/notification-shards.js';

/** Who gets an event: a local user, optionally only some of their clients. */
export interface Recipient {
  user: string;
  clients?: string[] | undefined;
}

export interface PublishOptions {
  /** The request that caused the event: its websocket connection does not get it back. */
  origin?: AccessClaims | undefined;
  /** Pushed to connected sockets only, never stored (typing indicators). */
  transient?: boolean;
}

/** One user's view of their shard: stream reads, queues, websocket upgrades (`z-user` is set here). */
export function userStream(env: Env, user: string) {
  const s = new NotificationShards(env).of(user);
  return {
    list: (q: ListQuery) => s.list(user, q),
    last: (client: string | undefined, ttlSeconds: number) => s.last(user, client, ttlSeconds),
    get: (id: string, client: string | undefined, ttlSeconds: number) => s.get(user, id, client, ttlSeconds),
    enableQueue: (client: string) => s.enableQueue(user, client),
    dropQueue: (client: string) => s.dropQueue(user, client),
    upgrade: (req: Request) => {
      req.headers.set('z-user', user);
      return s.fetch(req);
    },
  };
}

/**
 * How events built at the edge reach users: appended to each recipient's notification stream (its
 * shard object), which delivers them to the user's websockets. Every notification is written
 * through NotificationShards: here, and by the Proteus fan-outs (the Conversation object for a
 * conversation's messages, galley's broadcast for broadcasts).
 */
export async function publish(
  env: Env,
  config: Config,
  recipients: readonly Recipient[],
  event: { type: string },
  opts: PublishOptions = {},
): Promise<void> {
  // Events are built from zod schemas of JSON values; the stream stores them as JSON.
  const payload: EventPayload = event;
  const ttl = config.gundeck.settings.notificationTTL;
  const entries = recipients.map(
    (r): UserNotifications => ({
      user: r.user,
      inputs: [
        {
          payload: [payload],
          clients: r.clients,
          originConnection: opts.origin?.user === r.user ? opts.origin.connection : undefined,
          transient: opts.transient,
        },
      ],
    }),
  );
  await new NotificationShards(env).append(entries, ttl);
}
