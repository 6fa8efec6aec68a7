import type { Config } from '../../../shared/config/index.js';
import type { Db } from '../../db/client.js';
import { userStore } from '../users/user-store.js';
import type { UserRow } from '../users/user-json.js';
import { hashPassword, verifyPassword } from '../../../shared/password-hash.js';
import { takeHashingToken, type HashingCaller } from './rate-limit.js';

/** Hashes a new password with the configured algorithm, after taking a rate-limit token. */
export async function newPasswordHash(
  env: Env,
  config: Config,
  caller: HashingCaller,
  password: string,
): Promise<string> {
  await takeHashingToken(env, config, caller);
  return hashPassword(password, config.brig.optSettings.setPasswordHashingOptions);
}

/**
 * Whether the password is the user's. A correct password stored as scrypt is rehashed with
 * argon2id when that is configured (never the other way round).
 */
export async function checkUserPassword(
  env: Env,
  db: Db,
  config: Config,
  caller: HashingCaller,
  user: UserRow,
  password: string,
): Promise<boolean> {
  if (user.password === null) return false;
  await takeHashingToken(env, config, caller);
  const opts = config.brig.optSettings.setPasswordHashingOptions;
  const result = await verifyPassword(password, user.password, opts);
  if (result.ok && result.rehash) await userStore.update(db, user.id, { password: await hashPassword(password, opts) });
  return result.ok;
}

/** Whether a password matches a stored hash (a service provider's), after taking a rate-limit token. */
export async function passwordMatches(
  env: Env,
  config: Config,
  caller: HashingCaller,
  stored: string,
  password: string,
): Promise<boolean> {
  await takeHashingToken(env, config, caller);
  return (await verifyPassword(password, stored, config.brig.optSettings.setPasswordHashingOptions)).ok;
}
