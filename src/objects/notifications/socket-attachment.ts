import type { SocketKind } from '../../shared/notifications/types.js';

/** What a socket carries through hibernation: whose it is, and where its `/events` consumption stands. */
export interface Attachment {
  kind: SocketKind;
  user: string;
  client?: string | undefined;
  connection?: string | undefined;
  /** `/events`: the marker id the client asked for (`sync_marker`). */
  marker?: string | undefined;
  /** `/events`: `notifications_missed` was sent; only `ack_full_sync` may come next. */
  awaitingFullSync?: boolean | undefined;
  /** `/events`: the notification TTL, for the cut-off of the queue when this socket starts consuming it. */
  ttlSeconds?: number | undefined;
  /** `/events`: when it connected (ms), to pick the next consumer of a client's queue. */
  opened?: number | undefined;
  /** `/events`: another socket of the client consumes its queue; this one gets nothing until that one closes. */
  waiting?: boolean | undefined;
  /** `/events`: while another socket of the client waits, since when this consumer leaves an event unacknowledged (ms). */
  unackedSince?: number | undefined;
}
