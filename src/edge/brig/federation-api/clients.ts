// brig's federation RPCs about clients: their public view and their Proteus prekeys.
import { z } from '@hono/zod-openapi';
import { CLIENT_ID_PATTERN } from '../../../shared/client-id.js';
import { database } from '../../db/client.js';
import { federationRpc } from '../../federation/rpc.js';
import {
  claimLocalBundle,
  claimLocalMany,
  clientPrekey,
  prekeyBundle,
  userClientPrekeys,
} from '../clients/prekey-claims.js';
import { prekeyStore } from '../clients/prekey-store.js';
import { localClientsOf, userClientMap } from '../clients/user-clients.js';

const clientId = z.string().regex(CLIENT_ID_PATTERN);
/** What one call may ask for: as many clients as a conversation can have. */
const MAX_CLIENTS = 2000;

export const getUserClientsForRemote = federationRpc(
  {
    component: 'brig',
    rpc: 'get-user-clients',
    request: z.object({ users: z.array(z.uuid()).max(MAX_CLIENTS) }),
    response: userClientMap,
    description: 'The clients of each user (none for users this backend does not have)',
  },
  async (c, { users }) => localClientsOf(database(c.env.DB), users),
);

export const claimPrekey = federationRpc(
  {
    component: 'brig',
    rpc: 'claim-prekey',
    request: z.tuple([z.uuid(), clientId]),
    response: clientPrekey.nullable(),
    description: 'A claimed prekey of the client, or null when it has none',
  },
  async (c, [user, client]) => {
    const prekey = await prekeyStore.claim(database(c.env.DB), user, client);
    return prekey === undefined ? null : { client, prekey };
  },
);

export const claimPrekeyBundle = federationRpc(
  {
    component: 'brig',
    rpc: 'claim-prekey-bundle',
    request: z.uuid(),
    response: prekeyBundle,
    description: "A claimed prekey of each of the user's clients",
  },
  async (c, user) => claimLocalBundle(database(c.env.DB), user),
);

export const claimMultiPrekeyBundle = federationRpc(
  {
    component: 'brig',
    rpc: 'claim-multi-prekey-bundle',
    request: z
      .record(z.uuid(), z.array(clientId))
      .refine((m) => Object.values(m).reduce((n, cs) => n + cs.length, 0) <= MAX_CLIENTS, 'too many clients'),
    response: userClientPrekeys,
    description: 'A claimed prekey of each client asked for (null when it has none)',
  },
  async (c, asked) => claimLocalMany(database(c.env.DB), asked),
);
