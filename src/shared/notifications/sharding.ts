/**
 * The names of the notification objects. A user's object is their home (`home-<k>`, chosen when
 * the account was made: see objects/notifications/home-store.ts). Users made before homes
 * existed have none and stay where they were: on one of a fixed number of hash shards,
 * `shard-<n>`, n from a hash of the user id over NOTIFICATION_SHARDS (wrangler.toml), which must
 * therefore never change on a deployment that has such users.
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
export const homeName = (k: number) => `home-${k}`;
