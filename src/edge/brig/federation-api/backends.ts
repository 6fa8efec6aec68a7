import { database } from '../../db/client.js';
import { federationRpc } from '../../federation/rpc.js';
import { federationWith } from '../federation/federating.js';
import { deps } from '../../api/deps.js';
import { getNotFullyConnectedBackendsRpc } from '../../federation/backends-rpc.js';

/**
 * Of the backends a remote names (the others of a conversation it is making), those this one does
 * not federate with: conversations need every two of their backends to federate.
 */
export const getNotFullyConnectedBackends = federationRpc(
  { ...getNotFullyConnectedBackendsRpc, description: 'The backends of the list this one does not federate with' },
  async (c, { domains }) => {
    const config = c.get('config');
    const db = database(c.env.DB);
    const local = deps(c).domain;
    const others = [...new Set(domains)].filter((d) => d !== local);
    const federating = await Promise.all(others.map((d) => federationWith(config, db, d)));
    return { non_connected_backends: others.filter((_, i) => federating[i] === undefined) };
  },
);
