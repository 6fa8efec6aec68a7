/**
 * One event payload as clients see it (`conversation.create`, `user.connection`, ...): a JSON
 * object. Typed loosely on purpose: a recursive JSON type defeats the RPC stub's type mapping.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type EventPayload = { [key: string]: unknown };

/** The two websocket protocols a shard serves: cannon's `/await` and the `/events` stream. */
export type SocketKind = 'await' | 'events';

/**
 * One notification to each of a delivery's entries: `[user, clients, middle]`, where the
 * notification's payload (a JSON array) is `head + middle + tail` and `clients` (null: all of the
 * user's) are the clients it is for. A message to a conversation is one delivery: its shared
 * text is written once, and each recipient's part is only what differs (a Proteus ciphertext),
 * or nothing (an MLS message, a conversation event).
 */
export type DeliveryEntry = [user: string, clients: string[] | null, middle: string];

/** One client of a group among a notification object's users. */
export type RosterClient = [user: string, client: string];

/**
 * A group's message addressed to the group's clients as a notification object keeps them (its
 * roster of the group) rather than to a list sent with every message: a commit to ten thousand
 * clients names none of them. `seed` (the first message since the roster was kept there) is the
 * roster before the message; `change` moves it on after the message, for those that follow.
 */
export interface RosterAddress {
  /** The group (its id, base64). */
  group: string;
  /** The client that sent it: it does not get its own message. */
  except?: RosterClient | undefined;
  seed?: RosterClient[] | undefined;
  change?: { add: RosterClient[]; remove: RosterClient[] } | undefined;
}

export interface Delivery {
  /**
   * To the object's roster of a group instead of `to` (which the object fills from it); needs a
   * `channel`.
   */
  roster?: RosterAddress | undefined;
  /**
   * The conversation log it belongs to (`domain/id`, or `domain/id/subconv`): stored once per
   * notification object for all its recipients there. Absent: stored for each recipient alone.
   */
  channel?: string | undefined;
  head: string;
  tail: string;
  to: DeliveryEntry[];
  /** The request that caused it: that user's websocket with this connection id does not get it back. */
  origin?: { user: string; connection: string } | undefined;
  /** Delivered live only, never stored (typing indicators); never pushed natively either. */
  transient?: boolean | undefined;
  /** False: devices without a live websocket get no native push for it (a message's `native_push`). */
  nativePush?: false | undefined;
  /**
   * Set by a sender that may send it again after a crash (a conversation's outbox): the sender
   * and a number that rises with each delivery it sends to an object. An object stores a delivery
   * whose mark it has already passed only once.
   */
  from?: [source: string, mark: number] | undefined;
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
