// The background worker's federation pusher: delivers each remote's queued notifications in the
// order they were queued, up to 200 in one call to a remote that takes batches (see
// notification-batch.ts), one call each to one that does not. A remote that does not take one keeps it and everything after it; the
// queue wakes the pusher again after a backoff that doubles up to backendNotificationPusher's
// pushBackoffMaxWait (microseconds, as wire's chart gives them). While a remote that did not
// answer waits out a longer backoff, it is asked every PROBE_SECONDS whether it answers again:
// one that comes back gets its backlog then, not when the backoff ends.
import type { Config } from '../../shared/config/index.js';
import { ApiError } from '../api/errors/api-error.js';
import { database, type Db } from '../db/client.js';
import { type BatchedOutcome, FederatorClient } from '../federation/client.js';
import { type Wakeup, wake } from '../federation/outbox.js';
import { type OutboxRow, outboxStore } from '../federation/outbox-store.js';
import { log } from '../../shared/log.js';

const DEFAULT_MIN_WAIT_US = 10_000;
const DEFAULT_MAX_WAIT_US = 300_000_000;
const PAGE = 200;
const PROBE_SECONDS = 2;

function isWakeup(body: unknown): body is Wakeup {
  return typeof body === 'object' && body !== null && typeof (body as Wakeup).domain === 'string';
}

/**
 * The queue's batch: every remote named in it gets its notifications delivered, each remote on its
 * own (a slow or unreachable one holds up nobody else). The queue's consumer runs one batch at a
 * time, so a remote never has two pushers.
 */
export async function pushQueued(batch: MessageBatch<unknown>, env: Env, config: Config): Promise<void> {
  const due = new Map<string, boolean>();
  const probed = new Set<string>();
  for (const m of batch.messages) {
    if (!isWakeup(m.body)) continue;
    if (m.body.probe === true) probed.add(m.body.domain);
    else due.set(m.body.domain, due.get(m.body.domain) === true || m.body.retry === true);
  }
  const db = database(env.DB);
  await Promise.all([
    ...[...due].map(([domain, retry]) => pushTo(env, config, db, domain, retry)),
    ...[...probed].filter((d) => !due.has(d)).map((domain) => probe(env, config, db, domain)),
  ]);
}

/**
 * A remote waiting out its backoff after it did not answer: delivered to at once if it answers
 * now (a failure then waits out the backoff without probes), else asked again in a while.
 */
async function probe(env: Env, config: Config, db: Db, domain: string): Promise<void> {
  const backoff = await outboxStore.backoff(db, domain);
  if (backoff === undefined || backoff.nextAt <= Date.now()) return; // recovered, or the retry is due
  if (await FederatorClient.of(config).answers(domain)) return pushTo(env, config, db, domain, true, false);
  await probeLater(env, domain, backoff.nextAt);
}

/** The next probe, unless the backoff's own retry comes first. */
async function probeLater(env: Env, domain: string, retryAt: number): Promise<void> {
  if (retryAt - Date.now() <= PROBE_SECONDS * 1000) return;
  await env.BACKEND_NOTIFICATIONS.send({ domain, probe: true } satisfies Wakeup, { delaySeconds: PROBE_SECONDS });
}

/**
 * Wakes the pusher for every remote with notifications waiting (the periodic job: nothing waits on
 * a lost wake-up). It only wakes: pushing from here could run beside the queue's consumer.
 */
export async function wakeAllWaiting(env: Env): Promise<void> {
  await wake(env, await outboxStore.domains(database(env.DB)));
}

type Outcome = 'taken' | 'dropped' | 'retry' | 'unreachable';

/**
 * A refusal that no retry changes: our federator or the remote says no (400), or the remote
 * cannot take the payload (its 4xx, wrapped in 533). Discovery failures (422) and unreachable
 * remotes are retried.
 */
function isPermanent(err: ApiError): boolean {
  if (err.spec.status === 400) return true;
  const inner = err.extra.inner as { code?: unknown } | undefined;
  return typeof inner?.code === 'number' && inner.code < 500;
}

/** Nobody answered (the remote's federator, or ours), as against a remote that answered with a failure. */
function isUnreachable(err: ApiError): boolean {
  return err.spec.status === 521 || ['invalid-domain', 'federation-not-available'].includes(err.spec.label);
}

/** A call that failed, as the outcome of the notification it carried (or the first it carried). */
function failed(err: unknown, row: OutboxRow): Outcome {
  if (!(err instanceof ApiError)) throw err;
  if (!isPermanent(err)) return isUnreachable(err) ? 'unreachable' : 'retry';
  return dropped(row);
}

function dropped(row: OutboxRow): Outcome {
  log('warn', 'notification dropped', { domain: row.domain, rpc: row.rpc });
  return 'dropped';
}

async function deliver(client: FederatorClient, row: OutboxRow): Promise<Outcome> {
  try {
    const sent = await client.notify(row.domain, row.component, row.rpc, row.bundle);
    return sent === 'sent' ? 'taken' : dropped(row);
  } catch (err) {
    return failed(err, row);
  }
}

const stops = (o: Outcome) => o === 'retry' || o === 'unreachable';

/**
 * Delivers the first of `rows`, in one call when the remote takes batches, else one call each: the
 * outcome of each delivered, ending at the first that must wait.
 */
async function deliverFirst(client: FederatorClient, domain: string, rows: readonly OutboxRow[]): Promise<Outcome[]> {
  let batched: BatchedOutcome[] | undefined;
  try {
    batched = await client.notifyBatch(domain, rows);
  } catch (err) {
    return [failed(err, rows[0]!)];
  }
  if (batched !== undefined)
    return batched.map((o, i) => (o === 'sent' ? 'taken' : o === 'failed' ? 'retry' : dropped(rows[i]!)));
  const outcomes: Outcome[] = [];
  for (const row of rows) {
    outcomes.push(await deliver(client, row));
    if (stops(outcomes.at(-1)!)) break;
  }
  return outcomes;
}

async function pushTo(env: Env, config: Config, db: Db, domain: string, retry: boolean, probing = true): Promise<void> {
  const backoff = await outboxStore.backoff(db, domain);
  // A retry is scheduled: the notifications wait for it, in order.
  if (backoff !== undefined && !retry && backoff.nextAt > Date.now()) return;
  const client = FederatorClient.of(config);
  for (let rows = await outboxStore.next(db, domain, PAGE); rows.length > 0; ) {
    const outcomes = await deliverFirst(client, domain, rows);
    const done = outcomes.findIndex(stops);
    const delivered = done < 0 ? outcomes.length : done;
    if (delivered > 0) await outboxStore.taken(db, domain, rows[delivered - 1]!.seq);
    if (done >= 0) {
      const retryAt = await scheduleRetry(env, config, db, domain, backoff?.attempts ?? 0);
      if (outcomes[done] === 'unreachable' && probing) await probeLater(env, domain, retryAt);
      return;
    }
    rows = delivered < rows.length ? rows.slice(delivered) : await outboxStore.next(db, domain, PAGE);
  }
  if (backoff !== undefined) await outboxStore.recovered(db, domain);
}

/** Records the failure and wakes the pusher when the backoff ends; when that is. */
async function scheduleRetry(env: Env, config: Config, db: Db, domain: string, attempts: number): Promise<number> {
  const pusher = config['background-worker'].backendNotificationPusher;
  const min = pusher?.pushBackoffMinWait ?? DEFAULT_MIN_WAIT_US;
  const max = pusher?.pushBackoffMaxWait ?? DEFAULT_MAX_WAIT_US;
  const waitMs = Math.min(min * 2 ** attempts, max) / 1000;
  const retryAt = Date.now() + waitMs;
  await outboxStore.failed(db, domain, attempts + 1, retryAt);
  await env.BACKEND_NOTIFICATIONS.send({ domain, retry: true } satisfies Wakeup, {
    delaySeconds: Math.ceil(waitMs / 1000),
  });
  return retryAt;
}
