/** cargohold's face: what the cron job asks of it. */

/** Removes assets past their expiry, object then metadata; returns how many went. */
export { sweepExpiredAssets } from './expiry.js';
