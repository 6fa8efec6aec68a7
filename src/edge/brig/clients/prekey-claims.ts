// Claiming Proteus prekeys of users, this backend's or another's (through federation): what the
// public routes and the federation RPCs share.
import type { z } from '@hono/zod-openapi';
import type { Config } from '../../../shared/config/index.js';
import type { Deps } from '../../api/deps.js';
import { FederatorClient } from '../../federation/client.js';
import { accountObject } from './account-object.js';
import type { Prekey } from '../../api/schemas/prekeys.js';
import {
  claimMultiPrekeyBundleRpc,
  claimPrekeyBundleRpc,
  claimPrekeyRpc,
  type prekeyBundle,
  type userClientPrekeys,
} from '../federation-api/contract.js';

export type PrekeyBundle = z.infer<typeof prekeyBundle>;

export type UserClientPrekeys = z.infer<typeof userClientPrekeys>;

/** One prekey of a local user's client (claimed: not handed out again), if it has any. */
export async function claimLocalPrekey(d: Deps, user: string, client: string): Promise<Prekey | undefined> {
  const claimed = await accountObject(d.env, user).claimPrekeys(user, [client]);
  return claimed[client] ?? undefined;
}

/** One prekey of each of a local user's clients (claimed: not handed out again). */
export async function claimLocalBundle(d: Deps, user: string): Promise<PrekeyBundle> {
  return { user, clients: await accountObject(d.env, user).claimPrekeyBundle(user) };
}

/** One prekey of each client asked for, of local users (null for a client without any); the users' objects are asked at once. */
export async function claimLocalMany(d: Deps, asked: Record<string, readonly string[]>): Promise<UserClientPrekeys> {
  const claims = Object.entries(asked).map(async ([user, clients]) => {
    const claimed = clients.length === 0 ? {} : await accountObject(d.env, user).claimPrekeys(user, clients);
    return [user, Object.fromEntries(clients.map((client) => [client, claimed[client] ?? null]))] as const;
  });
  return Object.fromEntries(await Promise.all(claims));
}

export const remoteClaim = (config: Config, domain: string, user: string, client: string) =>
  FederatorClient.of(config).call(domain, claimPrekeyRpc, [user, client]);

export const remoteClaimBundle = (config: Config, domain: string, user: string) =>
  FederatorClient.of(config).call(domain, claimPrekeyBundleRpc, user);

export const remoteClaimMany = (config: Config, domain: string, asked: Record<string, readonly string[]>) =>
  FederatorClient.of(config).call(domain, claimMultiPrekeyBundleRpc, asked);
