import type { RemoteMlsDelivery } from '../mls/delivery.js';

/**
 * The effect a conversation's object records with an MLS commit's writes when the group reaches
 * other backends: the edge's own record of the commit (`told`, opaque here) and what the commit
 * caused. The edge tells the other backends (src/edge/galley/federation/mls-remote.ts); after a
 * crash, the sweep does.
 */
export const MLS_REMOTE_EFFECT = 'mls-remote';

export interface MlsRemoteArgs {
  told: unknown;
  eventsJson: string;
  time: string;
  remote: RemoteMlsDelivery[];
}
