import { fnv1a } from '../hash.js';

/**
 * The names of the notification shards (NotificationShard objects). A user's shard is placed when
 * the account is made (named `home-<k>`, the word of its first version: see
 * objects/notifications/placement-store.ts). Users made before placement have none and stay where
 * they were: on one of a fixed number of hashed shards, `shard-<n>`, n from a hash of the user id
 * over NOTIFICATION_SHARDS (wrangler.toml), which must therefore never change on a deployment that
 * has such users.
 */
const DEFAULT_SHARDS = 16;

export function shardCount(configured: string | undefined): number {
  const n = Number(configured ?? DEFAULT_SHARDS);
  return Number.isSafeInteger(n) && n > 0 ? n : DEFAULT_SHARDS;
}

/** The hashed shard of a user made before placement. */
export const shardOf = (user: string, shards: number): number => fnv1a(user) % shards;

export const shardName = (n: number) => `shard-${n}`;
export const placedShardName = (k: number) => `home-${k}`;
