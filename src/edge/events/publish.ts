import type { Config } from '../../shared/config/index.js';
import type { AccessClaims } from '../auth/tokens.js';
import { sameForAll, type Recipient } from '../../shared/notifications/deliveries.js';
import type { ListQuery } from '../../shared/notifications/types.js';
import { NotificationShards } from '../../objects/notification-shards.js';

export type { Recipient };

export interface PublishOptions {
  /** The request that caused the event: its websocket connection does not get it back. */
  origin?: AccessClaims | undefined;
  /** Pushed to connected sockets only, never stored (typing indicators). */
  transient?: boolean;
  /** The conversation (`domain/id`) whose members get it: stored once for them (see Delivery). */
  channel?: string;
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
  const origin = opts.origin === undefined ? undefined : { user: opts.origin.user, connection: opts.origin.connection };
  const delivery = sameForAll(JSON.stringify([event]), recipients, {
    channel: opts.channel,
    origin,
    transient: opts.transient,
  });
  await new NotificationShards(env).append([delivery], config.gundeck.settings.notificationTTL);
}
