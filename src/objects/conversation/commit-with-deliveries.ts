import { heldEffectsStore } from '../../shared/effects/held-effects-store.js';
import type { StoredEffect } from '../../shared/effects/pending-effects-store.js';
import type { QualifiedRef } from '../../shared/proteus/types.js';
import type { Delivery } from '../../shared/notifications/types.js';
import type { GroupSend, NotificationShards } from '../notification-shards.js';
import type { Write } from '../db/conversation-db.js';
import type { EdgeEffectsStore } from './edge-effects-store.js';

/** Where a group's change goes: the conversation's storage, its outbox (through the shards), D1 for the edge. */
export interface ChangeSinks {
  /** The object's conversation. */
  conv: () => QualifiedRef;
  d1: D1Database;
  shards: NotificationShards;
  edgeEffects: EdgeEffectsStore;
  /** Once the change is committed (the crash tests' fault point). */
  committed: () => Promise<void>;
  /** Something recorded is left to send: the alarm sends it. */
  retryLater: () => void;
}

/**
 * Makes a group's change and stores its notifications as one unit: the writes, the outbox's record
 * of the notifications and `also` (effects the edge carries out: telling other backends, the
 * members' lists) are one transaction of the conversation's storage; the notifications are then
 * stored (again from the outbox after a crash, with the same marks: nobody gets one twice) and
 * `also` handed over to D1. Returns the pending row of `also` and the effects, for the edge.
 */
export async function commitWithDeliveries(
  sinks: ChangeSinks,
  writes: readonly Write[],
  deliveries: Array<Delivery | GroupSend>,
  ttlSeconds: number,
  also: readonly StoredEffect[] = [],
): Promise<{ id: number; effectsJson: string } | undefined> {
  let recorded: number | undefined;
  // The sweep wakes this object if a crash leaves the effects here (see heldEffectsStore).
  if (also.length > 0) await heldEffectsStore.hold(sinks.d1, sinks.conv(), Date.now());
  const write = () => {
    for (const w of writes) w.run();
    if (also.length > 0) recorded = sinks.edgeEffects.record(also);
  };
  await sinks.shards.appendWith(deliveries, ttlSeconds, undefined, write, sinks.committed);
  if (recorded === undefined) return undefined;
  try {
    const id = await sinks.edgeEffects.handOver(sinks.d1, recorded);
    if (!sinks.edgeEffects.any()) await heldEffectsStore.release(sinks.d1, sinks.conv());
    return id === undefined ? undefined : { id, effectsJson: JSON.stringify(also) };
  } catch (err) {
    sinks.retryLater();
    throw err;
  }
}
