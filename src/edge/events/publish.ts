import type { Config } from '../../shared/config/index.js';
import type { AccessClaims } from '../auth/tokens.js';
import { sameForAll, type Recipient } from '../../shared/notifications/deliveries.js';
import type { ListQuery } from '../../shared/notifications/types.js';
import type { PushAddress } from '../../shared/notifications/native-push.js';
import { NotificationShards } from '../../objects/notification-shards.js';
import type { SendMark } from '../../shared/effects/effect-marks.js';
import { defineEffect } from '../effects/effect.js';
import type { Db } from '../db/client.js';

export type { Recipient };

export interface PublishOptions {
  /** The request that caused the event: its websocket connection does not get it back. */
  origin?: Pick<AccessClaims, 'user' | 'connection'> | undefined;
  /** Pushed to connected sockets only, never stored (typing indicators). */
  transient?: boolean;
  /** The conversation (`domain/id`) whose members get it: stored once for them (see Delivery). */
  channel?: string;
  /** Set by a change's pending effects (see src/edge/effects/): a send made again is stored once. */
  mark?: SendMark | undefined;
}

/** The statements that give a new account its notification object, for the account's batch. */
export const placeNotifications = (db: Db, user: string) => NotificationShards.place(db, user);

/**
 * One user's view of their notification object: stream reads, queues, push addresses, websocket
 * upgrades (`z-user` is set here). The object is found on first use.
 */
export function userStream(env: Env, user: string) {
  let found: ReturnType<NotificationShards['of']> | undefined;
  const s = () => (found ??= new NotificationShards(env).of(user));
  return {
    list: async (q: ListQuery) => (await s()).list(user, q),
    last: async (client: string | undefined, ttlSeconds: number) => (await s()).last(user, client, ttlSeconds),
    get: async (id: string, client: string | undefined, ttlSeconds: number) =>
      (await s()).get(user, id, client, ttlSeconds),
    /** `legacy`: the user's clients without a queue, as brig has them now (see LegacyClientStore). */
    enableQueue: async (client: string, legacy?: readonly string[]) => (await s()).enableQueue(user, client, legacy),
    addLegacyClient: async (client: string, legacy: readonly string[]) =>
      (await s()).addLegacyClient(user, client, legacy),
    pushTokens: async () => (await s()).pushTokens(user),
    addPushToken: async (a: PushAddress) => (await s()).addPushToken(user, a),
    removePushToken: async (token: string) => (await s()).removePushToken(user, token),
    /** A device the push service no longer takes: its addresses go, and their clients are told (atomically). */
    dropPushToken: async (token: string, ttlSeconds: number) => (await s()).dropPushToken(user, token, ttlSeconds),
    /** A deleted client's queue and push addresses go; the addresses are returned. */
    forgetClient: async (client: string) => (await s()).forgetClient(user, client),
    forgetUser: async () => (await s()).forgetUser(user),
    upgrade: async (req: Request) => {
      req.headers.set('z-user', user);
      return (await s()).fetch(req);
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
  await new NotificationShards(env).append([delivery], config.gundeck.settings.notificationTTL, opts.mark);
}

interface Publication {
  recipients: readonly Recipient[];
  event: { type: string };
  origin?: Pick<AccessClaims, 'user' | 'connection'> | undefined;
  channel?: string | undefined;
}

const publication = defineEffect('publish', ({ env, config, mark }, p: Publication) =>
  publish(env, config, p.recipients, p.event, { origin: p.origin, channel: p.channel, mark: mark() }),
);

/** `publish` as an effect of a change (see commitChange); not for transient events. */
export function publishEffect(
  recipients: readonly Recipient[],
  event: { type: string },
  opts: Pick<PublishOptions, 'origin' | 'channel'> = {},
) {
  const origin = opts.origin === undefined ? undefined : { user: opts.origin.user, connection: opts.origin.connection };
  return publication({ recipients, event, origin, channel: opts.channel });
}
