/**
 * Users' notification state is spread over a fixed number of shard objects, `shard-<n>`, n from
 * a hash of the user id. A message to a large conversation then costs one call per shard that
 * holds recipients, not one per recipient, and the number of live objects stays bounded.
 *
 * The count comes from the NOTIFICATION_SHARDS variable (wrangler.toml). It is part of where data
 * lives: changing it on a running deployment moves users to other shards and drops their streams.
 */
const DEFAULT_SHARDS = 16;

export function shardCount(configured: string | undefined): number {
  const n = Number(configured ?? DEFAULT_SHARDS);
  return Number.isSafeInteger(n) && n > 0 ? n : DEFAULT_SHARDS;
}

/** FNV-1a over the id's characters: stable across runtimes and cheap. */
export function shardOf(user: string, shards: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < user.length; i++) {
    h ^= user.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % shards;
}

export const shardName = (n: number) => `shard-${n}`;
