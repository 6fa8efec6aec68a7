// Claiming Proteus prekeys of users, this backend's or another's (through federation): what the
// public routes and the federation RPCs share.
import type { z } from '@hono/zod-openapi';
import type { Config } from '../../../shared/config/index.js';
import type { Db } from '../../db/client.js';
import { FederatorClient } from '../../federation/client.js';
import { clientStore } from './client-store.js';
import { prekeyStore } from './prekey-store.js';
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

/** One prekey of each of a local user's clients (claimed: not handed out again). */
export async function claimLocalBundle(db: Db, user: string): Promise<PrekeyBundle> {
  const clients = [];
  for (const cl of await clientStore.list(db, user)) {
    const key = await prekeyStore.claim(db, user, cl.id);
    if (key !== undefined) clients.push({ client: cl.id, prekey: key });
  }
  return { user, clients };
}

export async function claimLocalMany(db: Db, asked: Record<string, readonly string[]>): Promise<UserClientPrekeys> {
  const found: UserClientPrekeys = {};
  for (const [user, clients] of Object.entries(asked)) {
    const byClient: Record<string, Prekey | null> = (found[user] = {});
    for (const client of clients) byClient[client] = (await prekeyStore.claim(db, user, client)) ?? null;
  }
  return found;
}

export const remoteClaim = (config: Config, domain: string, user: string, client: string) =>
  FederatorClient.of(config).call(domain, claimPrekeyRpc, [user, client]);

export const remoteClaimBundle = (config: Config, domain: string, user: string) =>
  FederatorClient.of(config).call(domain, claimPrekeyBundleRpc, user);

export const remoteClaimMany = (config: Config, domain: string, asked: Record<string, readonly string[]>) =>
  FederatorClient.of(config).call(domain, claimMultiPrekeyBundleRpc, asked);
