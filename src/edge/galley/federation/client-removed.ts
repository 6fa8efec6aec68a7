import { database } from '../../db/client.js';
import { federationRpc } from '../../federation/rpc.js';
import { conversationStore } from '../conversations/conversation-store.js';
import { membershipChanged } from '../conversations/conversation-object.js';
import { deps } from '../../api/deps.js';
import { onClientRemovedRpc } from './mls-deliveries.js';

export const onClientRemoved = federationRpc(
  { ...onClientRemovedRpc, description: 'Taken' },
  async (c, r, { origin }) => {
    const config = c.get('config');
    const db = database(c.env.DB);
    const domain = deps(c).domain;
    const who = { id: r.user, domain: origin };
    for (const id of new Set(r.convs)) {
      const conv = { id, domain };
      if ((await conversationStore.member(db, conv, who)) === undefined) continue;
      await membershipChanged(c.env, conv, { config, targets: [{ ...who, client: r.client }] });
    }
    return {};
  },
);
