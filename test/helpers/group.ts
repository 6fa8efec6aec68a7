import { addClient } from './clients.js';
import { connect, type TestUser } from './users.js';
import { postConversation } from './endpoints/galley.js';

/**
 * A group conversation of `sender` with `others` (connected to the sender first), one new client
 * each: the sender's (`from`) and the others' in their order.
 */
export async function groupWithClients(base: string, sender: TestUser, others: readonly TestUser[]) {
  for (const o of others) await connect(base, sender, o);
  const conv: string = (
    await postConversation(base, sender.token, {
      qualified_users: others.map((o) => ({ id: o.id, domain: 'example.com' })),
    })
  ).body.qualified_id.id;
  const from = await addClient(base, sender);
  const clients: string[] = [];
  for (const o of others) clients.push(await addClient(base, o));
  return { conv, from, clients };
}
