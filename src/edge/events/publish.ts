import type { Config } from '../../shared/config/index.js';
import type { AccessClaims } from '../auth/tokens.js';
import type { Env } from '../env.js';
import type {
  EventPayload,
  ListQuery,
  ListResult,
  NotificationInput,
  QueuedNotification,
} from '../../objects/notifications/types.js';

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

/** The RPC surface of a user's stream object, typed plainly (the stub's mapped types are too deep for tsc). */
export interface UserStreamApi {
  append(inputs: NotificationInput[], ttlSeconds: number): Promise<string[]>;
  list(q: ListQuery): Promise<ListResult>;
  last(client: string | undefined, ttlSeconds: number): Promise<QueuedNotification | undefined>;
  get(id: string, client: string | undefined, ttlSeconds: number): Promise<QueuedNotification | undefined>;
  enableQueue(client: string): Promise<void>;
  dropQueue(client: string): Promise<void>;
  fetch(req: Request): Promise<Response>;
}

export function userStream(env: Env, user: string): UserStreamApi {
  return env.USER_NOTIFICATIONS.get(env.USER_NOTIFICATIONS.idFromName(user)) as unknown as UserStreamApi;
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
  await Promise.all(
    recipients.map((r) => {
      const input: NotificationInput = {
        payload: [payload],
        clients: r.clients,
        originConnection: opts.origin?.user === r.user ? opts.origin.connection : undefined,
        transient: opts.transient,
      };
      return userStream(env, r.user).append([input], ttl);
    }),
  );
}
