// Notifications to other backends (wire's queued backend notifications): written to D1 once the
// change that causes them is, then the background worker is woken through the queue to deliver
// them, in order, retrying while the remote is down.
import { FEDERATION_API_VERSIONS } from '../../shared/federation/versions.js';
import { type Db, runBatch } from '../db/client.js';
import { type Change, noChange } from '../effects/commit-change.js';
import { defineEffect } from '../effects/effect.js';
import type { RemoteNotification } from './contract.js';
import { outboxStore } from './outbox-store.js';

/**
 * What the queue carries: a remote whose notifications are due (`retry`: after a failed delivery;
 * `probe`: while it waits out a long backoff, whether it answers again).
 */
export interface Wakeup {
  domain: string;
  retry?: true;
  probe?: true;
}

/** What the queue carries when this backend stopped federating with a remote: the clean-up to run. */
export interface Defederation {
  defederate: string;
}

/** One payload that every federation API version takes. */
export const forEveryVersion = <T>(payload: T): Record<number, T> => ({ [FEDERATION_API_VERSIONS[0]!]: payload });

/** Wakes the background worker for these remotes. */
export async function wake(env: Env, remotes: Iterable<string>): Promise<void> {
  const domains = [...new Set(remotes)];
  if (domains.length === 0) return;
  await env.BACKEND_NOTIFICATIONS.sendBatch(domains.map((domain) => ({ body: { domain } satisfies Wakeup })));
}

/** Those of `domains` that did not take their last notification: queued work for them waits. */
export async function unreachableAmong(db: Db, domains: readonly string[]): Promise<Set<string>> {
  return new Set(await outboxStore.failing(db, domains));
}

const wakeup = defineEffect('wake-background-worker', ({ env }, a: { remotes: string[] }) => wake(env, a.remotes));

/**
 * Notifications as part of a change (see commitChange): queued in its batch, and the background
 * worker woken once it is committed (after a crash, the cron's wakeAllWaiting or the sweep does).
 */
export function queuedForRemotes(db: Db, notifications: readonly RemoteNotification[]): Change {
  if (notifications.length === 0) return noChange();
  const queuedAt = Date.now();
  return {
    statements: outboxStore.add(
      db,
      notifications.map((n) => ({ ...n, queuedAt })),
    ),
    effects: [wakeup({ remotes: [...new Set(notifications.map((n) => n.domain))] })],
  };
}

/** Queues notifications on their own and wakes the background worker. */
export async function queueForRemotes(env: Env, db: Db, notifications: readonly RemoteNotification[]): Promise<void> {
  const queuedAt = Date.now();
  await runBatch(
    db,
    outboxStore.add(
      db,
      notifications.map((n) => ({ ...n, queuedAt })),
    ),
  );
  await wake(
    env,
    notifications.map((n) => n.domain),
  );
}

/**
 * This backend stopped federating with `domain`: what waited for it is dropped, the other remotes
 * are told (`told`: galley's on-connection-removed) and the background worker is asked to clean up.
 */
export async function queueDefederation(
  env: Env,
  db: Db,
  domain: string,
  told: readonly RemoteNotification[],
): Promise<void> {
  await outboxStore.dropDomain(db, domain);
  await queueForRemotes(env, db, told);
  await env.BACKEND_NOTIFICATIONS.send({ defederate: domain } satisfies Defederation);
}
