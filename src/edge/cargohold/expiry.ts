import type { Config } from '../../shared/config/index.js';
import { database } from '../db/client.js';
import { assetStore } from './asset-store.js';
import { objectStore } from './object-store.js';
import { log } from '../../shared/log.js';

const BATCH = 100;

/**
 * Removes volatile and expiring assets past their expiry: the object, then its metadata (a failed
 * object delete keeps the row, so the next sweep tries again). Downloads already refuse them.
 */
export async function sweepExpiredAssets(env: Env, config: Config, now = Date.now()): Promise<number> {
  const db = database(env.DB);
  const store = objectStore(env, config.cargohold.objstore);
  let removed = 0;
  for (;;) {
    const keys = await assetStore.expired(db, now, BATCH);
    const results = await Promise.allSettled(keys.map((k) => store.delete(k).then(() => assetStore.remove(db, k))));
    const done = results.filter((r) => r.status === 'fulfilled').length;
    removed += done;
    for (const r of results)
      if (r.status === 'rejected') log('error', 'asset expiry failed', { error: String(r.reason) });
    if (keys.length < BATCH || done < keys.length) return removed;
  }
}
