import type { Endpoint } from './api/endpoint.js';
import { botsInternal, botsPublic } from './bots/routes.js';
import { brigInternal, brigPublic } from './brig/routes.js';
import { cannonPublic } from './cannon/routes.js';
import { cargoholdInternal, cargoholdPublic } from './cargohold/routes.js';
import { galleyInternal, galleyPublic } from './galley/routes.js';
import { gundeckInternal, gundeckPublic } from './gundeck/routes.js';
import { takeBatch } from './federation/take-batch.js';
import { metricsInternal } from './metrics/routes.js';
import { proxyPublic } from './proxy/routes.js';
import { sparInternal, sparPublic } from './spar/routes.js';

/** Every public endpoint, each declared once with its version range. */
export const publicEndpoints: readonly Endpoint[] = [
  ...botsPublic,
  ...brigPublic,
  ...galleyPublic,
  ...gundeckPublic,
  ...cannonPublic,
  ...cargoholdPublic,
  ...sparPublic,
  ...proxyPublic,
];

const internalOnes: readonly Endpoint[] = [
  ...botsInternal,
  ...brigInternal,
  ...galleyInternal,
  ...gundeckInternal,
  ...cargoholdInternal,
  ...sparInternal,
  ...metricsInternal,
];

/**
 * Every internal endpoint (`/i/...` and the federation API): unversioned, on the internal listener
 * only; a notification batch may call each federation RPC among them.
 */
export const internalEndpoints: readonly Endpoint[] = [...internalOnes, takeBatch(internalOnes)];
