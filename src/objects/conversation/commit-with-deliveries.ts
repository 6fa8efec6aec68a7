import { effectMarks } from '../../shared/effects/effect-marks.js';
import { type DeliveriesArgs, DELIVERIES_EFFECT } from '../../shared/effects/deliveries-effect.js';
import { pendingEffectsStore, type StoredEffect } from '../../shared/effects/pending-effects-store.js';
import { faultPoint } from '../../shared/fault-point.js';
import type { Delivery } from '../../shared/notifications/types.js';
import type { NotificationShards } from '../notification-shards.js';

/**
 * Writes a group's change to D1 and stores its notifications as one unit: the notifications are
 * recorded in the writes' batch (a pending effect), stored, and the record removed. After a crash
 * in between, the edge's sweep stores them (with the same marks: nobody gets one twice). `also`,
 * effects the edge carries out (telling other backends, the members' lists), are recorded in the
 * batch too, in a row of their own: its id is returned, for the edge.
 */
export async function commitWithDeliveries(
  env: Pick<Env, 'DB' | 'FAULT_POINT'>,
  shards: NotificationShards,
  statements: D1PreparedStatement[],
  deliveries: Delivery[],
  ttlSeconds: number,
  also: readonly StoredEffect[] = [],
): Promise<number | undefined> {
  const now = Date.now();
  const alsoRecord = also.length === 0 ? [] : [pendingEffectsStore.insert(env.DB, [...also], now)];
  if (deliveries.length === 0) {
    const results = await env.DB.batch([...statements, ...alsoRecord]);
    return also.length === 0 ? undefined : pendingEffectsStore.idOf(results.at(-1)!);
  }
  const args: DeliveriesArgs = { deliveries, ttlSeconds };
  const record = pendingEffectsStore.insert(env.DB, [{ kind: DELIVERIES_EFFECT, args }], now);
  const results = await env.DB.batch([...statements, ...alsoRecord, record]);
  const id = pendingEffectsStore.idOf(results.at(-1)!);
  await faultPoint(env, 'change-committed');
  await shards.append(deliveries, ttlSeconds, effectMarks(id)());
  await pendingEffectsStore.remove(env.DB, id);
  return also.length === 0 ? undefined : pendingEffectsStore.idOf(results.at(-2)!);
}
