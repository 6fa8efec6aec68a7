import { federationRpc } from '../../federation/rpc.js';
import { conversationBook } from '../conversations/conversation-book.js';
import { membershipChanged } from '../conversations/conversation-object.js';
import { deps } from '../../api/deps.js';
import { onClientRemovedRpc } from './mls-deliveries.js';

export const onClientRemoved = federationRpc(
  { ...onClientRemovedRpc, description: 'Taken' },
  async (c, r, { origin }) => {
    const config = c.get('config');
    const domain = deps(c).domain;
    const who = { id: r.user, domain: origin };
    for (const id of new Set(r.convs)) {
      const conv = { id, domain };
      if ((await conversationBook.member(c.env, conv, who)) === undefined) continue;
      await membershipChanged(c.env, conv, { config, targets: [{ ...who, client: r.client }] });
    }
    return {};
  },
);
