/**
 * One event payload as clients see it (`conversation.create`, `user.connection`, ...): a JSON
 * object. Typed loosely on purpose: a recursive JSON type defeats the RPC stub's type mapping.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type EventPayload = { [key: string]: unknown };

/** The two websocket protocols a shard serves: cannon's `/await` and the `/events` stream. */
export type SocketKind = 'await' | 'events';

/** A notification to append to a user's stream. */
export interface NotificationInput {
  /** The events; or, already serialised, `payloadJson` (a JSON array): fan-outs build it once per message. */
  payload?: EventPayload[];
  payloadJson?: string;
  /** Only these clients get it (untargeted when absent). */
  clients?: string[] | undefined;
  /** The Z-Connection of the request that caused it: that websocket does not get it back. */
  originConnection?: string | undefined;
  /** Delivered live only, never stored (typing indicators). */
  transient?: boolean | undefined;
}

/** `{id, payload}`: what `GET /notifications` lists and `/await` sends. */
export interface QueuedNotification {
  id: string;
  payload: EventPayload[];
}

export interface ListQuery {
  since?: string | undefined;
  client?: string | undefined;
  size: number;
  ttlSeconds: number;
}

export type ListResult =
  | { found: true; notifications: QueuedNotification[]; hasMore: boolean }
  /** `since` is not (or no longer) in the stream; the list starts at the beginning. */
  | { found: false; notifications: QueuedNotification[]; hasMore: boolean };

/** A user's share of an append to their shard. */
export interface UserNotifications {
  user: string;
  inputs: NotificationInput[];
}
