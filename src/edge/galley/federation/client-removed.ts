// on-client-removed: a client of another backend's user is gone; the conversations owned here that
// the user is in propose its removal from their MLS groups (the sender's side: mls-deliveries.ts).
import { z } from '@hono/zod-openapi';
import { database } from '../../db/client.js';
import { emptyResponse, federationRpc } from '../../federation/rpc.js';
import { conversationStore } from '../conversations/conversation-store.js';
import { membershipChanged } from '../conversations/conversation-object.js';
import { deps } from '../../api/deps.js';

const request = z
  .object({ user: z.uuid(), client: z.string().min(1), convs: z.array(z.uuid()) })
  .openapi('ClientRemovedRequest');

export const onClientRemoved = federationRpc(
  { component: 'galley', rpc: 'on-client-removed', request, response: emptyResponse, description: 'Taken' },
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
