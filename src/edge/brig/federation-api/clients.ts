import { database } from '../../db/client.js';
import { federationRpc } from '../../federation/rpc.js';
import { claimLocalBundle, claimLocalMany, claimLocalPrekey } from '../clients/prekey-claims.js';
import { deps } from '../../api/deps.js';
import { localClientsOf } from '../clients/user-clients.js';
import { getUserClientsRpc, claimPrekeyRpc, claimPrekeyBundleRpc, claimMultiPrekeyBundleRpc } from './contract.js';

export const getUserClientsForRemote = federationRpc(
  { ...getUserClientsRpc, description: 'The clients of each user (none for users this backend does not have)' },
  async (c, { users }) => localClientsOf(database(c.env.DB), users),
);

export const claimPrekey = federationRpc(
  { ...claimPrekeyRpc, description: 'A claimed prekey of the client, or null when it has none' },
  async (c, [user, client]) => {
    const prekey = await claimLocalPrekey(deps(c), user, client);
    return prekey === undefined ? null : { client, prekey };
  },
);

export const claimPrekeyBundle = federationRpc(
  { ...claimPrekeyBundleRpc, description: "A claimed prekey of each of the user's clients" },
  async (c, user) => claimLocalBundle(deps(c), user),
);

export const claimMultiPrekeyBundle = federationRpc(
  { ...claimMultiPrekeyBundleRpc, description: 'A claimed prekey of each client asked for (null when it has none)' },
  async (c, asked) => claimLocalMany(deps(c), asked),
);
