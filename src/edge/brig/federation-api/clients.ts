import { database } from '../../db/client.js';
import { federationRpc } from '../../federation/rpc.js';
import { claimLocalBundle, claimLocalMany } from '../clients/prekey-claims.js';
import { prekeyStore } from '../clients/prekey-store.js';
import { localClientsOf } from '../clients/user-clients.js';
import { getUserClientsRpc, claimPrekeyRpc, claimPrekeyBundleRpc, claimMultiPrekeyBundleRpc } from './contract.js';

export const getUserClientsForRemote = federationRpc(
  { ...getUserClientsRpc, description: 'The clients of each user (none for users this backend does not have)' },
  async (c, { users }) => localClientsOf(database(c.env.DB), users),
);

export const claimPrekey = federationRpc(
  { ...claimPrekeyRpc, description: 'A claimed prekey of the client, or null when it has none' },
  async (c, [user, client]) => {
    const prekey = await prekeyStore.claim(database(c.env.DB), user, client);
    return prekey === undefined ? null : { client, prekey };
  },
);

export const claimPrekeyBundle = federationRpc(
  { ...claimPrekeyBundleRpc, description: "A claimed prekey of each of the user's clients" },
  async (c, user) => claimLocalBundle(database(c.env.DB), user),
);

export const claimMultiPrekeyBundle = federationRpc(
  { ...claimMultiPrekeyBundleRpc, description: 'A claimed prekey of each client asked for (null when it has none)' },
  async (c, asked) => claimLocalMany(database(c.env.DB), asked),
);
