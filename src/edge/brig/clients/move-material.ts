import { legacyAccountStore } from '../../../shared/accounts/legacy-account-store.js';
import type { Deps } from '../../api/deps.js';
import { accountObject } from './account-object.js';

/** Users whose rows move per round: their objects are asked at once. */
const ROUND = 50;

/**
 * Moves what versions before the Account object kept of users in D1 (prekeys, key packages,
 * cookies, connections, properties, consents; shared/accounts/legacy-account-store.ts) into their
 * users' objects, at most `limit` users' worth (the rows themselves are the cursor: a user's go
 * once moved, so a later run resumes). A user's object also moves them on its first call, so the
 * sweep only frees D1 of users who have not been asked for since. Returns how many users moved.
 */
export async function moveLegacyMaterial(d: Deps, limit: number): Promise<number> {
  let moved = 0;
  let previous = '';
  while (moved < limit) {
    const users = await legacyAccountStore.users(d.db, Math.min(ROUND, limit - moved));
    // A round that finds the same users again made no progress: their objects failed; next run.
    const round = users.join();
    if (users.length === 0 || round === previous) break;
    previous = round;
    const results = await Promise.allSettled(users.map((user) => accountObject(d.env, user).moveIn(user)));
    moved += results.filter((r) => r.status === 'fulfilled').length;
  }
  return moved;
}
