import type { Delivery } from '../notifications/types.js';

/**
 * The effect a Durable Object records with its D1 writes (an MLS commit, a backend's removal
 * proposal): notifications already built, to be stored for their recipients. The edge carries it
 * out when the sweep finds it (src/edge/effects/deliveries.ts).
 */
export const DELIVERIES_EFFECT = 'deliveries';

export interface DeliveriesArgs {
  deliveries: Delivery[];
  ttlSeconds: number;
}
