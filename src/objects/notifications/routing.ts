/** Where a notification for one user goes, besides the queues of the queue-consuming clients it names. */
export interface Route {
  /**
   * Who gets it the legacy way, stored for `GET /notifications` and sent to `/await`: all of the
   * user's clients (null), some, or nobody (undefined).
   */
  listed: readonly string[] | null | undefined;
  /** Whether the user's temporary consumers (`/events` without a client) get it. */
  temporary: boolean;
}

/**
 * gundeck's split of a push between the queues (RabbitMQ) and the stream (Cassandra), for one
 * recipient: `clients` are those it is for (null: all of the user's), `queued` the user's
 * queue-consuming clients, `legacy` the others (undefined: not known, see LegacyClientStore).
 * - None of its clients consumes a queue (the user may have no clients at all): the stream only.
 * - Some do: their queues; the stream only for its legacy clients, if it has any. Temporary
 *   consumers, bound to the user's own routing key, get it when it is for all of the user's clients.
 */
export function route(
  clients: readonly string[] | null,
  queued: readonly string[],
  legacy: readonly string[] | undefined,
): Route {
  const queues = clients === null ? queued.length > 0 : clients.some((c) => queued.includes(c));
  if (!queues) return { listed: clients, temporary: false };
  const temporary = clients === null;
  if (legacy === undefined) return { listed: clients, temporary };
  const listed = clients === null ? legacy : clients.filter((c) => legacy.includes(c));
  return { listed: listed.length === 0 ? undefined : listed, temporary };
}
