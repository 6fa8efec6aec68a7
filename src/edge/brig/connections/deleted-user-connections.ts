// A deleted account's connections with users of other backends: their backends hear of it.
import { chunked } from '../../../shared/chunked.js';
import type { Config } from '../../../shared/config/index.js';
import { groupBy } from '../../../shared/group-by.js';
import { log } from '../../../shared/log.js';
import type { Db } from '../../db/client.js';
import type { Change } from '../../effects/commit-change.js';
import { FederatorClient } from '../../federation/client.js';
import { notificationTo } from '../../federation/contract.js';
import { forEveryVersion, queuedForRemotes } from '../../federation/outbox.js';
import { onUserDeletedConnectionsRpc, sendConnectionActionRpc } from '../federation-api/contract.js';
import type { ConnectionRow } from './connection-book.js';

/**
 * Remote users the account was connected with (whatever the status) hear of the deletion from
 * their own backend (`on-user-deleted-connections`, queued), which drops their connections to it.
 */
export function remoteContactsTold(db: Db, user: string, remote: readonly ConnectionRow[]): Change {
  const notifications = [...groupBy(remote, (r) => r.toDomain)].flatMap(([domain, rows]) =>
    chunked(
      rows.map((r) => r.toUser),
      1000,
    ).map((connections) => notificationTo(onUserDeletedConnectionsRpc, domain, forEveryVersion({ user, connections }))),
  );
  return queuedForRemotes(db, notifications);
}

/** Users of other backends the account had asked to connect see the request cancelled, as wire does. */
export async function rescindRemoteRequests(
  config: Config,
  user: string,
  asked: readonly ConnectionRow[],
): Promise<void> {
  await Promise.all(
    asked.map(async (r) => {
      try {
        await FederatorClient.of(config).call(r.toDomain, sendConnectionActionRpc, {
          from: user,
          to: r.toUser,
          action: 'RemoteRescind',
        });
      } catch (e) {
        log('warn', "a deleted user's connection request could not be rescinded", {
          domain: r.toDomain,
          error: String(e),
        });
      }
    }),
  );
}
