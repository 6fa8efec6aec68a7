import type { GroupClient } from '../../../shared/mls/delivery.js';
import { ApiError } from '../../api/errors/api-error.js';
import { commonErrors } from '../../api/errors/common.js';

/**
 * Most users one commit may add. Each added user costs the commit's request two object calls (their
 * clients' keys, their list of conversations), and a request may make 10,000 on Cloudflare;
 * workerd's SQLite runs out of memory with ~10,000 Account objects open at once.
 */
export const MAX_USERS_ADDED_PER_COMMIT = 2000;

/** Refuses (413, before any lookup) a commit whose clients belong to more users than one commit may add. */
export function requireFewUsers(clients: readonly GroupClient[]): void {
  const users = new Set(clients.map((c) => `${c.domain}/${c.user}`)).size;
  if (users > MAX_USERS_ADDED_PER_COMMIT)
    throw new ApiError(
      commonErrors.payloadTooLarge,
      `A commit may add clients of at most ${MAX_USERS_ADDED_PER_COMMIT} users; add the others by further commits`,
    );
}
