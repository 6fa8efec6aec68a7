import type { Config } from '../../shared/config/index.js';
import type { AccessClaims } from '../auth/tokens.js';
import type { Env } from '../env.js';
import type { EventPayload, ListQuery, UserNotifications } from '../../objects/notifications/types.js';
import { NotificationShards } from './shards.js';

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
 * The one way events reach users: appended to each recipient's notification stream (its Durable
 * Object), which delivers them to the user's websockets. Events are built by the modules in this
 * folder; nothing else writes notifications.
 */
export async function publish(
  env: Env,
  config: Config,
  recipients: readonly Recipient[],
  event: { type: string },
  opts: PublishOptions = {},
): Promise<void> {
  // Events are built from zod schemas of JSON values; the stream stores them as JSON.
  const payload = event as unknown as EventPayload;
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
